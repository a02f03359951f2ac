/**
 * Adding or editing one camera: its name, where it looks (a room, optionally one of its grids and a
 * box of it), its kind (an IP camera's still-image address, or a phone with a device link), how often
 * it captures, the model its images are analysed with, and whether it runs. Saved online
 * (src/api/cameras.ts); the schemas' and the server's messages show under the form.
 *
 * Where the spec is silent:
 * - Rooms, grids and boxes come from the tablet's copy; the server resolves their client ids.
 * - A saved address is shown with its secrets masked (*****); saved back unchanged, the server keeps
 *   the stored secrets, so an Admin renames a camera without typing its password again.
 * - The kind of a saved camera is fixed (an address and a device link do not convert).
 */
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUILT_IN_MODELS } from '../../../common/models/catalogue';
import { CAMERA_KINDS, cameraMessages } from '../../../common/messages/cameras';
import { type Camera, type CameraLimits, saveCamera } from '../../api/cameras';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { translateMessage } from '../../i18n/messages';
import { type BoxDoc, boxLabel, byName, type GridDoc, type RoomDoc } from '../rooms/model';
import { ChoiceOptions, Field, FormButtons, FormError } from '../shell/forms';
import { type CameraFormValues, draftOf, intervalName, NEW_CAMERA, valuesOf } from './model';
import { camerasTexts, kindLabels } from './texts';

/** What a still-image address looks like (not a text to translate). */
const SNAPSHOT_URL_EXAMPLE = 'https://camera.example.com/snapshot.jpg';

/**
 * A select with its label beside it, not around it: a wrapped select would put its chosen value into
 * its accessible name (shell/forms.tsx `RoomFilter` says the same).
 */
function SelectField(props: { label: string; value: string; disabled?: boolean; onChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="camera-select">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value)}>
        {props.children}
      </select>
    </div>
  );
}

/** An uploaded model as the tablet holds it (`operations`, kind `ai_model`). */
type AiModelDoc = LocalDocument & { key?: string; name?: string; latest?: boolean };

export function CameraForm(props: { user: SignedInUser; camera?: Camera; limits: CameraLimits; rooms: readonly RoomDoc[]; onSaved: (camera: Camera) => void; onCancel: () => void }) {
  const { t } = useTranslation(camerasTexts);
  const { user, camera, limits } = props;
  const grids = useLocalQuery<GridDoc>('grids', { CompanyID: user.companyId }, `camera-grids-${user.companyId}`).documents;
  const models = useLocalQuery<AiModelDoc>('operations', { kind: 'ai_model' }, 'camera-ai-models').documents;
  const docIdOf = (collection: 'rooms' | 'grids' | 'grid_boxes', serverId: number | null) => {
    if (serverId === null) return '';
    const found = collection === 'rooms' ? props.rooms.find((room) => room.serverId === serverId) : collection === 'grids' ? grids.find((grid) => grid.serverId === serverId) : undefined;
    // A box is named by its server id until its grid's boxes are read (below).
    return found?.id ?? String(serverId);
  };
  const [values, setValues] = useState<CameraFormValues>(() => (camera ? valuesOf(camera, docIdOf) : NEW_CAMERA));
  const set = (patch: Partial<CameraFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const boxes = useLocalQuery<BoxDoc>('grid_boxes', { gridId: values.gridId || '\u0000' }, `camera-boxes-${values.gridId}`).documents;
  const saving = useAction(async (context, draft: ReturnType<typeof draftOf>) => props.onSaved(await saveCamera(context, draft, limits)), camera ? cameraMessages.cameraUpdated : cameraMessages.cameraCreated, { inlineErrors: true });
  const roomGrids = useMemo(() => grids.filter((grid) => grid.roomId === values.roomId).sort(byName), [grids, values.roomId]);
  const sortedBoxes = useMemo(() => [...boxes].sort((a, b) => Number(a.Y) - Number(b.Y) || Number(a.X) - Number(b.X)), [boxes]);
  const customModels = models.filter((model) => model.latest !== false && typeof model.key === 'string');
  const kind = camera?.kind ?? values.kind;
  const minimum = intervalName(limits.min_interval_seconds);

  // A saved camera's box is named by its server id until its grid's boxes are read: then by its document.
  useEffect(() => {
    const box = /^\d+$/.test(values.gridBoxId) ? boxes.find((each) => String(each.serverId) === values.gridBoxId) : undefined;
    if (box) setValues((current) => ({ ...current, gridBoxId: box.id }));
  }, [boxes, values.gridBoxId]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void saving.run(draftOf(values, user.companyId, camera));
  }

  const title = camera ? t('form.editTitle', { name: camera.name }) : t('form.new');
  return (
    <form className="form camera-form" onSubmit={submit} aria-label={camera ? t('form.edit') : t('form.new')} noValidate>
      <h2>{title}</h2>
      <div className="camera-form-grid">
        <Field label={t('form.name')}>
          <input type="text" value={values.name} maxLength={100} onChange={(event) => set({ name: event.target.value })} />
        </Field>
        <SelectField label={t('form.kind')} value={kind} disabled={camera !== undefined} onChange={(value) => set({ kind: value as CameraFormValues['kind'] })}>
          <ChoiceOptions choices={CAMERA_KINDS} labels={kindLabels()} />
        </SelectField>
        <SelectField label={t('form.room')} value={values.roomId} onChange={(value) => set({ roomId: value, gridId: '', gridBoxId: '' })}>
          <option value="">{t('form.chooseRoom')}</option>
          {props.rooms.map((room) => (
            <option key={room.id} value={room.id}>
              {room.Name || t('form.unnamedRoom')}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('form.grid')} value={values.gridId} disabled={!values.roomId} onChange={(value) => set({ gridId: value, gridBoxId: '' })}>
          <option value="">{t('form.wholeRoom')}</option>
          {roomGrids.map((grid) => (
            <option key={grid.id} value={grid.id}>
              {grid.Name || t('form.unnamedGrid')}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('form.box')} value={values.gridBoxId} disabled={!values.gridId} onChange={(value) => set({ gridBoxId: value })}>
          <option value="">{t('form.wholeGrid')}</option>
          {sortedBoxes.map((box, index) => (
            <option key={box.id} value={box.id}>
              {boxLabel(box, index + 1)}
            </option>
          ))}
        </SelectField>
        <Field label={t('form.every', { minimum })}>
          <input type="number" inputMode="decimal" step="any" min={limits.min_interval_seconds / 60} max={limits.max_interval_minutes} value={values.intervalMinutes} onChange={(event) => set({ intervalMinutes: event.target.value })} />
        </Field>
        <SelectField label={t('form.model')} value={values.modelKey} onChange={(value) => set({ modelKey: value })}>
          <option value="">{t('form.companyModel')}</option>
          {BUILT_IN_MODELS.map((model) => (
            <option key={model.key} value={model.key}>
              {translateMessage(model.name)}
            </option>
          ))}
          {customModels.map((model) => (
            <option key={model.id} value={model.key}>
              {model.name ?? model.key}
            </option>
          ))}
          {values.modelKey && !BUILT_IN_MODELS.some((model) => model.key === values.modelKey) && !customModels.some((model) => model.key === values.modelKey) && (
            <option value={values.modelKey}>{values.modelKey}</option>
          )}
        </SelectField>
      </div>
      {kind === 'ip' ? (
        <Field label={t('form.snapshotUrl')}>
          <input
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder={SNAPSHOT_URL_EXAMPLE}
            value={values.snapshotUrl}
            onChange={(event) => set({ snapshotUrl: event.target.value })}
          />
        </Field>
      ) : (
        <p className="muted">{t('form.deviceHelp')}</p>
      )}
      <label className="camera-enabled">
        <input type="checkbox" checked={values.enabled} onChange={(event) => set({ enabled: event.target.checked })} />
        {t('form.enabled')}
      </label>
      <FormError error={saving.error} />
      <FormButtons submitLabel={camera ? t('form.save') : t('form.add')} busy={saving.busy} busyLabel={t('form.saving')} onCancel={props.onCancel} />
    </form>
  );
}
