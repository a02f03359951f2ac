/**
 * Trays and tray templates (spec part 2 §2, §3, §5, §7): the company's trays and templates from the
 * local `operations` collection (kinds `tray` and `tray_template`), changed through src/api/trays.ts,
 * whose checks give the spec's messages. Everyone creates, edits and makes trays from templates;
 * Admins also delete trays and create or delete templates (README "Trays"), so those buttons are shown
 * to them only. A tray made offline shows at once, marked as waiting to sync.
 *
 * Where the spec is silent:
 * - Deleting asks first, in the card (a tablet in a grow room is easy to mis-tap).
 * - Lists are sorted by name (numbers in names in number order).
 * - A tray's batch is shown by its batch number; a batch the tablet does not know shows as "Batch not
 *   on this tablet" rather than an id.
 */
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { trayMessages as m } from '../../../common/messages/trays';
import { reachedServer } from '../../api/records';
import type { TrayTemplateRecord } from '../../../common/schemas/trays';
import type { BatchDocument } from '../../api/batches';
import { createTray, createTrayTemplate, deleteTray, deleteTrayTemplate, type Tray, updateTray, useTrayTemplate } from '../../api/trays';
import { useAction, useLocalQuery, type SignedInUser } from '../../app/hooks';
import { formatNumber } from '../../i18n/format';
import type { LocalDocument } from '../../db/schemas';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import './trays.css';
import { traysTexts } from './texts';

type TrayDoc = LocalDocument & Tray;
type TemplateDoc = LocalDocument & TrayTemplateRecord;
type BatchDoc = LocalDocument & Pick<BatchDocument, 'BatchID' | 'BatchNumber' | 'StrainName'>;
type Id = Tray['tray_id'];

const byName =
  <T,>(name: (item: T) => string) =>
  (a: T, b: T) =>
    name(a).localeCompare(name(b), undefined, { numeric: true, sensitivity: 'base' });
const trayOrder = byName<TrayDoc>((tray) => tray.tray_name ?? '');
const templateOrder = byName<TemplateDoc>((template) => template.template_name ?? '');
const batchOrder = byName<BatchDoc>((batch) => batch.BatchNumber ?? '');

/** A batch id (its client id) as a form's select value, and back. */
const batchValue = (id: Id | null | undefined) => (id === null || id === undefined ? '' : String(id));
const batchIdOf = (value: string): Id | null => (value === '' ? null : value);

type Panel = { kind: 'tray' } | { kind: 'edit'; tray: TrayDoc } | { kind: 'template' } | { kind: 'use'; template: TemplateDoc } | null;

export function TraysScreen() {
  const { t } = useTranslation(traysTexts);
  return <SignedIn title={t('title')}>{(user) => <Trays user={user} />}</SignedIn>;
}

function Trays({ user }: { user: SignedInUser }) {
  // The company's own documents only: a shared tablet may still hold another company's.
  const { t } = useTranslation(traysTexts);
  const { companyId } = user;
  const trays = useLocalQuery<TrayDoc>('operations', { kind: 'tray', company_id: companyId }, `tray-${companyId}`);
  const templates = useLocalQuery<TemplateDoc>('operations', { kind: 'tray_template', company_id: companyId }, `tray_template-${companyId}`);
  const batches = useLocalQuery<BatchDoc>('batches', { CompanyID: companyId }, `batches-${companyId}`);
  const [panel, setPanel] = useState<Panel>(null);

  const sortedTrays = useMemo(() => [...trays.documents].sort(trayOrder), [trays.documents]);
  const sortedTemplates = useMemo(() => [...templates.documents].sort(templateOrder), [templates.documents]);
  const sortedBatches = useMemo(() => [...batches.documents].sort(batchOrder), [batches.documents]);
  const batchName = useMemo(() => {
    const names = new Map(batches.documents.map((batch) => [String(batch.BatchID), batch.BatchNumber || t('unnamedBatch')]));
    return (id: Id | null | undefined) => (id === null || id === undefined ? null : (names.get(String(id)) ?? t('batchNotOnTablet')));
  }, [batches.documents, t]);

  const close = () => setPanel(null);
  return (
    <Screen
      title={t('title')}
      loading={trays.loading || templates.loading}
      actions={
        <>
          <button type="button" className="button primary" onClick={() => setPanel({ kind: 'tray' })}>
            {t('newTray')}
          </button>
          {user.isAdmin && (
            <button type="button" className="button" onClick={() => setPanel({ kind: 'template' })}>
              {t('newTemplate')}
            </button>
          )}
        </>
      }
    >
      {panel?.kind === 'tray' && <TrayForm key="new" user={user} batches={sortedBatches} onDone={close} />}
      {panel?.kind === 'edit' && <TrayForm key={panel.tray.id} user={user} tray={panel.tray} batches={sortedBatches} onDone={close} />}
      {panel?.kind === 'template' && <TemplateForm user={user} batches={sortedBatches} onDone={close} />}
      {panel?.kind === 'use' && <UseTemplateForm key={panel.template.id} user={user} template={panel.template} batches={sortedBatches} batchName={batchName} onDone={close} />}

      <section className="tray-section" aria-labelledby="trays-heading">
        <h2 id="trays-heading">{t('trays.heading')}</h2>
        {sortedTrays.length === 0 ? (
          <p className="empty">{t('trays.empty')}</p>
        ) : (
          <ul className="tray-list" aria-label={t('trays.heading')}>
            {sortedTrays.map((tray) => (
              <TrayCard key={tray.id} tray={tray} batch={batchName(tray.batch_id)} user={user} onEdit={() => setPanel({ kind: 'edit', tray })} />
            ))}
          </ul>
        )}
      </section>

      <section className="tray-section" aria-labelledby="templates-heading">
        <h2 id="templates-heading">{t('templates.heading')}</h2>
        {sortedTemplates.length === 0 ? (
          <p className="empty">{user.isAdmin ? t('templates.emptyAdmin') : t('templates.empty')}</p>
        ) : (
          <ul className="tray-list" aria-label={t('templates.heading')}>
            {sortedTemplates.map((template) => (
              <TemplateCard key={template.id} template={template} batch={batchName(template.default_batch_id)} user={user} onUse={() => setPanel({ kind: 'use', template })} />
            ))}
          </ul>
        )}
      </section>
    </Screen>
  );
}

function Waiting({ document }: { document: object }) {
  const { t } = useTranslation(traysTexts);
  return reachedServer(document) ? null : <span className="chip waiting">{t('waitingToSync')}</span>;
}

/**
 * A tray's or template's card: its name (marked while it waits to sync), plant count and batch, then
 * its own button and, for an Admin, Delete, which asks first in the card.
 */
function CardFrame(props: {
  name: string;
  /** The tray's or template's document: it waits to sync until the server's copy (with its `serverId`) is here. */
  document: object;
  plants: number | null;
  batchText: string;
  children?: ReactNode;
  action: ReactNode;
  canDelete: boolean;
  deleteQuestion: string;
  removing: { busy: boolean; error: string | null };
  onDelete: () => void;
}) {
  const { t } = useTranslation(traysTexts);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="card tray-card" aria-label={props.name}>
      <div className="tray-head">
        <h3>{props.name}</h3>
        <Waiting document={props.document} />
      </div>
      <p className="tray-facts">
        <span>
          <strong>{props.plants === null ? '—' : formatNumber(props.plants)}</strong> {t('card.plantWord', { count: props.plants ?? 0 })}
        </span>
        <span>{props.batchText}</span>
      </p>
      {props.children}
      {confirming ? (
        <ConfirmPanel question={props.deleteQuestion} busy={props.removing.busy} onConfirm={props.onDelete} onKeep={() => setConfirming(false)} />
      ) : (
        <div className="tray-actions">
          {props.action}
          {props.canDelete && (
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>
              {t('card.delete')}
            </button>
          )}
        </div>
      )}
      <FormError error={props.removing.error} />
    </li>
  );
}

function TrayCard({ tray, batch, user, onEdit }: { tray: TrayDoc; batch: string | null; user: SignedInUser; onEdit: () => void }) {
  const { t } = useTranslation(traysTexts);
  const remove = useAction(deleteTray, m.trayDeleted);
  return (
    <CardFrame
      name={tray.tray_name}
      document={tray}
      plants={tray.number_of_plants}
      batchText={batch ? t('trayCard.batch', { batch }) : t('trayCard.noBatch')}
      action={
        <button type="button" className="button" onClick={onEdit}>
          {t('trayCard.edit')}
        </button>
      }
      canDelete={user.isAdmin}
      deleteQuestion={t('trayCard.deleteQuestion', { name: tray.tray_name })}
      removing={remove}
      onDelete={() => void remove.run({ trayId: tray.tray_id, companyId: user.companyId })}
    />
  );
}

function TemplateCard({ template, batch, user, onUse }: { template: TemplateDoc; batch: string | null; user: SignedInUser; onUse: () => void }) {
  const { t } = useTranslation(traysTexts);
  const remove = useAction(deleteTrayTemplate, m.templateDeleted);
  return (
    <CardFrame
      name={template.template_name}
      document={template}
      plants={template.number_of_plants}
      batchText={batch ? t('templateCard.defaultBatch', { batch }) : t('templateCard.noDefaultBatch')}
      action={
        <button type="button" className="button primary" onClick={onUse}>
          {t('templateCard.makeTray')}
        </button>
      }
      canDelete={user.isAdmin}
      deleteQuestion={t('templateCard.deleteQuestion', { name: template.template_name })}
      removing={remove}
      onDelete={() => void remove.run({ templateId: template.template_id, companyId: user.companyId })}
    >
      {template.description && <p className="muted">{template.description}</p>}
    </CardFrame>
  );
}

function BatchSelect({ label, value, batches, onChange, none }: { label: string; value: string; batches: BatchDoc[]; onChange: (value: string) => void; none?: string }) {
  const { t } = useTranslation(traysTexts);
  return (
    <Field label={label}>
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{none ?? t('form.noBatch')}</option>
        {batches.map((batch) => (
          <option key={batch.id} value={String(batch.BatchID)}>
            {batch.BatchNumber || t('unnamedBatch')}
            {batch.StrainName ? ` · ${batch.StrainName}` : ''}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Plant counts are typed: an empty or partial entry goes to the domain function as NaN, which answers the spec's message. */
const plantCount = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function TrayForm({ user, tray, batches, onDone }: { user: SignedInUser; tray?: TrayDoc; batches: BatchDoc[]; onDone: () => void }) {
  const { t } = useTranslation(traysTexts);
  const [name, setName] = useState(tray?.tray_name ?? '');
  const [plants, setPlants] = useState(tray?.number_of_plants === null || tray?.number_of_plants === undefined ? '' : String(tray.number_of_plants));
  const [batch, setBatch] = useState(batchValue(tray?.batch_id));
  const create = useAction(createTray, m.trayCreated);
  const update = useAction(updateTray, m.trayUpdated);
  const action = tray ? update : create;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!tray) {
      if (await create.run({ trayName: name, companyId: user.companyId, userId: user.userId, numberOfPlants: plantCount(plants), batchId: batchIdOf(batch) })) onDone();
      return;
    }
    // Only what changed is sent (update_tray changes only the fields it is given).
    const changes: { trayName?: string; numberOfPlants?: number; batchId?: Id | null } = {};
    if (name !== tray.tray_name) changes.trayName = name;
    if (plants !== (tray.number_of_plants === null ? '' : String(tray.number_of_plants))) changes.numberOfPlants = plantCount(plants);
    if (batch !== batchValue(tray.batch_id)) changes.batchId = batchIdOf(batch);
    if (Object.keys(changes).length === 0) return onDone();
    if (await update.run({ trayId: tray.tray_id, companyId: user.companyId, ...changes })) onDone();
  }

  const title = tray ? t('trayForm.editTitle', { name: tray.tray_name }) : t('trayForm.newTitle');
  return (
    <form className="form card tray-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
      <h2>{title}</h2>
      <Field label={t('form.trayName')}>
        <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus={!tray} />
      </Field>
      <Field label={t('form.numberOfPlants')}>
        <input type="number" inputMode="numeric" min={1} step={1} value={plants} onChange={(event) => setPlants(event.target.value)} />
      </Field>
      <BatchSelect label={t('form.batch')} value={batch} batches={batches} onChange={setBatch} />
      <FormError error={action.error} />
      <FormButtons className="tray-actions" submitLabel={tray ? t('trayForm.save') : t('trayForm.create')} busy={action.busy} onCancel={onDone} />
    </form>
  );
}

function TemplateForm({ user, batches, onDone }: { user: SignedInUser; batches: BatchDoc[]; onDone: () => void }) {
  const { t } = useTranslation(traysTexts);
  const [name, setName] = useState('');
  const [plants, setPlants] = useState('');
  const [description, setDescription] = useState('');
  const [batch, setBatch] = useState('');
  const create = useAction(createTrayTemplate, m.templateCreated);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await create.run({
      templateName: name,
      companyId: user.companyId,
      userId: user.userId,
      numberOfPlants: plantCount(plants),
      description: description.trim() === '' ? undefined : description,
      defaultBatchId: batchIdOf(batch),
    });
    if (done) onDone();
  }

  return (
    <form className="form card tray-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('templateForm.title')}>
      <h2>{t('templateForm.title')}</h2>
      <Field label={t('form.templateName')}>
        <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
      </Field>
      <Field label={t('form.numberOfPlants')}>
        <input type="number" inputMode="numeric" min={1} step={1} value={plants} onChange={(event) => setPlants(event.target.value)} />
      </Field>
      <Field label={t('form.description')}>
        <textarea rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <BatchSelect label={t('form.defaultBatch')} value={batch} batches={batches} onChange={setBatch} none={t('form.noDefaultBatch')} />
      <FormError error={create.error} />
      <FormButtons className="tray-actions" submitLabel={t('templateForm.create')} busy={create.busy} onCancel={onDone} />
    </form>
  );
}

function UseTemplateForm({ user, template, batches, batchName, onDone }: { user: SignedInUser; template: TemplateDoc; batches: BatchDoc[]; batchName: (id: Id | null) => string | null; onDone: () => void }) {
  const { t } = useTranslation(traysTexts);
  const [name, setName] = useState('');
  // '' keeps the template's default batch (use_tray_template falls back to it).
  const [batch, setBatch] = useState('');
  const use = useAction(useTrayTemplate, m.templateUsed);
  const defaultBatch = batchName(template.default_batch_id);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await use.run({ templateId: template.template_id, companyId: user.companyId, userId: user.userId, trayName: name, ...(batch === '' ? {} : { batchId: batchIdOf(batch) }) });
    if (done) onDone();
  }

  const title = t('useTemplate.title', { name: template.template_name });
  return (
    <form className="form card tray-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
      <h2>{title}</h2>
      <p className="muted">
        {defaultBatch ? t('useTemplate.plantsWithBatch', { count: template.number_of_plants, batch: defaultBatch }) : t('useTemplate.plants', { count: template.number_of_plants })}
      </p>
      <Field label={t('form.trayName')}>
        <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
      </Field>
      <BatchSelect label={t('form.batch')} value={batch} batches={batches} onChange={setBatch} none={defaultBatch ? t('useTemplate.templateBatch', { batch: defaultBatch }) : t('form.noBatch')} />
      <FormError error={use.error} />
      <FormButtons className="tray-actions" submitLabel={t('useTemplate.create')} busy={use.busy} onCancel={onDone} />
    </form>
  );
}
