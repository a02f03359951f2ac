/**
 * Grid templates (spec part 2 §3, §5, §7, §9: create_grid_templates, delete_grid_templates,
 * submit_grid_template; the spec has no screen for them): the company's Grid and SubGrid templates
 * from the local `operations` collection (kind `grid_template`), changed through
 * src/api/grid-templates.ts, whose checks give the spec's messages. Creating and deleting are
 * Admin-only and using one is open to every member (README "Grid templates"), so New template and
 * Delete are shown to Admins only. Using a template lays a grid out in a room (Grid) or divides a box
 * into positions (SubGrid); the result shows at once from the local store, marked until it has synced,
 * and works offline wherever the room and box are on the tablet.
 *
 * Where the spec is silent:
 * - The list shows both types by default, filtered by type with one tap; names sort as growers
 *   number things ("Tray 2" before "Tray 10").
 * - A new template's type starts as the filter's (SubGrid, the spec's listing default, when showing all).
 * - Deleting asks first, in the card (a tablet in a grow room is easy to mis-tap); grids and divisions
 *   already made from a template stay.
 * - Using a SubGrid template offers the room's boxes named as the room screen names them, each with
 *   how many positions it has already; a box already divided is refused where positions overlap, with
 *   the reason under the form. "Auto initialize plants" is on, as the spec's default.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GRID_TEMPLATE_DEFAULT_TYPE, GRID_TEMPLATE_TYPES, type GridTemplateType, gridTemplateMessages as m } from '../../../common/messages/grid-templates';
import { createGridTemplates, deleteGridTemplates, type GridTemplate, submitGridTemplate } from '../../api/grid-templates';
import type { ApiContext } from '../../api/context';
import { reachedServer } from '../../api/records';
import { subGridboxDisplayName, subGridboxesOf } from '../../api/subgrids';
import { useAction, useLocalDocument, useLocalQuery, type SignedInUser } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { i18next } from '../../i18n/i18n';
import type { BoxDoc, GridDoc, RoomDoc } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { BoxSelect, placedName, RoomSelect, useCompanyDoc, useCompanyRooms, useRoomBoxes } from '../plant-moves/places';
import './grid-templates.css';
import { gridTemplatesTexts } from './texts';

type TemplateDoc = LocalDocument & GridTemplate;
type Filter = GridTemplateType | 'All';
const FILTERS: readonly Filter[] = ['All', ...GRID_TEMPLATE_TYPES];

/** What a use made, followed live in the local store. */
type Result = { kind: 'Grid'; gridId: string; roomId: string } | { kind: 'SubGrid'; boxId: string; boxName: string };
type Panel = { kind: 'new' } | { kind: 'use'; template: TemplateDoc } | null;

const templateOrder = (a: TemplateDoc, b: TemplateDoc) => a.template_name.localeCompare(b.template_name, undefined, { numeric: true, sensitivity: 'base' });

/** "4 × 2 · 8 boxes" (called at render, in the reader's language). */
const sizeText = (template: Pick<GridTemplate, 'rows' | 'columns' | 'template_type'>) =>
  i18next.t(template.template_type === 'Grid' ? 'size.boxes' : 'size.positions', { ns: gridTemplatesTexts, count: template.rows * template.columns, columns: template.columns, rows: template.rows });

export function GridTemplatesScreen() {
  const { t } = useTranslation(gridTemplatesTexts);
  return <SignedIn title={t('title')}>{(user) => <GridTemplates user={user} />}</SignedIn>;
}

function GridTemplates({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(gridTemplatesTexts);
  // The company's own documents only: a shared tablet may still hold another company's.
  const { companyId } = user;
  const templates = useLocalQuery<TemplateDoc>('operations', { kind: 'grid_template', company_id: companyId }, `grid_template-${companyId}`);
  const [filter, setFilter] = useState<Filter>('All');
  const [panel, setPanel] = useState<Panel>(null);
  const [result, setResult] = useState<Result | null>(null);
  const shown = useMemo(() => templates.documents.filter((template) => filter === 'All' || template.template_type === filter).sort(templateOrder), [templates.documents, filter]);

  const open = (next: Panel) => {
    setResult(null);
    setPanel(next);
  };
  return (
    <Screen
      title={t('title')}
      loading={templates.loading}
      actions={
        user.isAdmin && (
          <button type="button" className="button primary" onClick={() => open({ kind: 'new' })}>
            {t('newTemplate')}
          </button>
        )
      }
    >
      {panel?.kind === 'new' && <TemplateForm user={user} initialType={filter === 'All' ? GRID_TEMPLATE_DEFAULT_TYPE : filter} onDone={() => setPanel(null)} />}
      {panel?.kind === 'use' && (
        <UseForm
          key={panel.template.id}
          user={user}
          template={panel.template}
          onCancel={() => setPanel(null)}
          onDone={(made) => {
            setPanel(null);
            setResult(made);
          }}
        />
      )}
      {result?.kind === 'Grid' && <GridResult gridId={result.gridId} roomId={result.roomId} onClose={() => setResult(null)} />}
      {result?.kind === 'SubGrid' && <SubGridResult boxId={result.boxId} boxName={result.boxName} onClose={() => setResult(null)} />}

      <div className="template-filter" role="group" aria-label={t('list.filter')}>
        {FILTERS.map((type) => (
          <button key={type} type="button" className={`button${filter === type ? ' primary' : ''}`} aria-pressed={filter === type} onClick={() => setFilter(type)}>
            {t(`types.${type}`)}
          </button>
        ))}
      </div>

      {shown.length === 0 ? (
        <p className="empty">
          {templates.documents.length > 0
            ? t('list.emptyOfType', { type: t(`types.${filter}`) })
            : user.isAdmin
              ? t('list.emptyAdmin')
              : t('list.empty')}
        </p>
      ) : (
        <ul className="template-list" aria-label={t('title')}>
          {shown.map((template) => (
            <TemplateCard key={template.id} template={template} user={user} onUse={() => open({ kind: 'use', template })} />
          ))}
        </ul>
      )}
    </Screen>
  );
}

function Waiting({ document }: { document: object | null }) {
  const { t } = useTranslation(gridTemplatesTexts);
  return document && !reachedServer(document) ? <span className="chip waiting">{t('waitingToSync')}</span> : null;
}

function TemplateCard({ template, user, onUse }: { template: TemplateDoc; user: SignedInUser; onUse: () => void }) {
  const { t } = useTranslation(gridTemplatesTexts);
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(deleteGridTemplates, m.deleted);
  return (
    <li className="card template-card" aria-label={template.template_name}>
      <div className="template-head">
        <h2>{template.template_name}</h2>
        <span className={`chip type-chip ${template.template_type === 'Grid' ? 'grid-type' : 'subgrid-type'}`}>{t(`types.${template.template_type}`)}</span>
        <Waiting document={template} />
      </div>
      <p className="template-size">{sizeText(template)}</p>
      {template.description && <p className="muted">{template.description}</p>}
      {confirming ? (
        <ConfirmPanel
          question={t('card.deleteQuestion', { name: template.template_name })}
          message={t('card.deleteMessage', { name: template.template_name })}
          busy={remove.busy}
          onConfirm={() => void remove.run({ templateId: template.template_id, companyId: user.companyId })}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <div className="template-actions">
          <button type="button" className="button primary" onClick={onUse}>
            {template.template_type === 'Grid' ? t('card.layOutGrid') : t('card.divideBox')}
          </button>
          {user.isAdmin && (
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>
              {t('card.delete')}
            </button>
          )}
        </div>
      )}
      <FormError error={remove.error} />
    </li>
  );
}

/** Rows and columns as typed: blank goes as missing (the spec's 'Rows is required'), anything else as the number it reads as. */
const sizeOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/**
 * createGridTemplates types rows and columns as numbers, yet checks them with the server's schema,
 * whose message for a missing one is the spec's: a blank field is handed over as missing.
 */
function createFromForm(context: ApiContext, input: Omit<Parameters<typeof createGridTemplates>[1], 'rows' | 'columns'> & { rows: number | undefined; columns: number | undefined }) {
  return createGridTemplates(context, input as Parameters<typeof createGridTemplates>[1]);
}

function TemplateForm({ user, initialType, onDone }: { user: SignedInUser; initialType: GridTemplateType; onDone: () => void }) {
  const { t } = useTranslation(gridTemplatesTexts);
  const [name, setName] = useState('');
  const [type, setType] = useState<GridTemplateType>(initialType);
  const [rows, setRows] = useState('');
  const [columns, setColumns] = useState('');
  const [description, setDescription] = useState('');
  const create = useAction(createFromForm, m.created, { inlineErrors: true });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await create.run({
      templateName: name,
      templateType: type,
      rows: sizeOf(rows),
      columns: sizeOf(columns),
      ...(description.trim() ? { description: description.trim() } : {}),
      companyId: user.companyId,
      userId: user.userId,
    });
    if (done) onDone();
  }

  return (
    <form className="form card template-form" onSubmit={(event) => void submit(event)} noValidate aria-label={t('form.title')}>
      <h2>{t('form.title')}</h2>
      <div className="template-fields">
        <Field label={t('form.name')}>
          <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
        </Field>
        <Field label={t('form.type')}>
          <select value={type} onChange={(event) => setType(event.target.value as GridTemplateType)}>
            <option value="Grid">{t('types.Grid')}</option>
            <option value="SubGrid">{t('types.SubGrid')}</option>
          </select>
        </Field>
        <Field label={t('form.columns')}>
          <input type="number" inputMode="numeric" min={1} step={1} value={columns} onChange={(event) => setColumns(event.target.value)} />
        </Field>
        <Field label={t('form.rows')}>
          <input type="number" inputMode="numeric" min={1} step={1} value={rows} onChange={(event) => setRows(event.target.value)} />
        </Field>
      </div>
      <p className="muted">{type === 'Grid' ? t('form.gridHelp') : t('form.subGridHelp')}</p>
      <Field label={t('form.description')}>
        <textarea rows={2} value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <FormError error={create.error} />
      <FormButtons className="template-actions" submitLabel={t('form.create')} busy={create.busy} onCancel={onDone} />
    </form>
  );
}

function UseForm({ user, template, onCancel, onDone }: { user: SignedInUser; template: TemplateDoc; onCancel: () => void; onDone: (result: Result) => void }) {
  const { t } = useTranslation(gridTemplatesTexts);
  const { rooms } = useCompanyRooms(user.companyId);
  const company = useCompanyDoc(user.companyId);
  // A company with one room needs no choosing.
  const [roomChoice, setRoomChoice] = useState('');
  const roomId = roomChoice || (rooms.length === 1 ? rooms[0]!.id : '');
  const [gridName, setGridName] = useState('');
  const [boxId, setBoxId] = useState('');
  const [autoPlants, setAutoPlants] = useState(true);
  const isGrid = template.template_type === 'Grid';
  const { placed, loading } = useRoomBoxes(isGrid ? null : roomId || null, company);
  const box = placed.find((candidate) => candidate.box.id === boxId);

  // The action hands back what it made, so the result can follow it in the local store.
  const submitAndShow = useCallback(
    async (context: ApiContext, input: Parameters<typeof submitGridTemplate>[1]) => {
      const made = await submitGridTemplate(context, input);
      if (made.template_type === 'Grid') onDone({ kind: 'Grid', gridId: made.GridID, roomId: String(input.roomId ?? '') });
      else if (made.template_type === 'SubGrid' && box) onDone({ kind: 'SubGrid', boxId: box.box.id, boxName: placedName(box) });
      return made;
    },
    [onDone, box],
  );
  const use = useAction(submitAndShow, isGrid ? m.gridSubmitted : m.subGridSubmitted, { inlineErrors: true });

  async function submit(event: FormEvent) {
    event.preventDefault();
    await use.run({
      templateId: template.template_id,
      companyId: user.companyId,
      userId: user.userId,
      ...(isGrid ? { ...(roomId ? { roomId } : {}), ...(gridName.trim() ? { gridName: gridName.trim() } : {}) } : { ...(box ? { parentGridboxId: box.box.id } : {}), autoInitializePlants: autoPlants }),
    });
  }

  const title = isGrid ? t('use.gridTitle', { name: template.template_name }) : t('use.subGridTitle', { name: template.template_name });
  return (
    <form className="form card template-form" onSubmit={(event) => void submit(event)} noValidate aria-label={title}>
      <h2>{title}</h2>
      <p className="muted">
        {isGrid
          ? t('use.gridSummary', { columns: template.columns, rows: template.rows, boxes: template.columns * template.rows })
          : t('use.subGridSummary', { columns: template.columns, rows: template.rows, positions: template.columns * template.rows })}
      </p>
      <div className="template-fields">
        <RoomSelect
          label={t('use.room')}
          value={roomId}
          rooms={rooms}
          none={rooms.length === 0 ? t('use.noRooms') : t('use.chooseRoom')}
          onChange={(id) => {
            setRoomChoice(id);
            setBoxId('');
          }}
        />
        {isGrid ? (
          <Field label={t('use.gridName')}>
            <input value={gridName} placeholder={template.template_name} onChange={(event) => setGridName(event.target.value)} autoComplete="off" />
          </Field>
        ) : (
          <BoxSelect
            label={t('use.box')}
            value={box ? boxId : ''}
            boxes={placed}
            none={!roomId ? t('use.chooseRoomFirst') : loading ? t('use.loadingBoxes') : placed.length === 0 ? t('use.noBoxes') : t('use.chooseBox')}
            disabled={!roomId}
            note={(each) => {
              const count = subGridboxesOf(each.box).length;
              return count === 0 ? null : t('use.positionsAlready', { count });
            }}
            onChange={setBoxId}
          />
        )}
      </div>
      {isGrid && <p className="muted">{t('use.gridNameHelp')}</p>}
      {!isGrid && (
        <label className="check-field">
          <input type="checkbox" checked={autoPlants} onChange={(event) => setAutoPlants(event.target.checked)} />
          {t('use.autoPlants')}
        </label>
      )}
      <FormError error={use.error} />
      <FormButtons className="template-actions" submitLabel={isGrid ? t('use.layOutGrid') : t('use.divideBox')} busy={use.busy} onCancel={onCancel} />
    </form>
  );
}

/** The grid a Grid template made, live: its boxes appear at once and it is marked until the server has it. */
function GridResult({ gridId, roomId, onClose }: { gridId: string; roomId: string; onClose: () => void }) {
  const { t } = useTranslation(gridTemplatesTexts);
  const grid = useLocalDocument<GridDoc>('grids', gridId).document;
  const room = useLocalDocument<RoomDoc>('rooms', roomId).document;
  const boxes = useLocalQuery<BoxDoc>('grid_boxes', { gridId }, `result-boxes-${gridId}`);
  return (
    <section className="card template-result" aria-label={t('gridResult.label')}>
      <div className="template-head">
        <h2>{t('gridResult.heading', { name: grid?.Name ?? '' })}</h2>
        <Waiting document={grid} />
      </div>
      <p data-boxes={boxes.documents.length}>
        {grid?.nx && grid.ny
          ? t('gridResult.boxesWithSize', { room: room?.Name ?? t('gridResult.theRoom'), count: boxes.documents.length, columns: grid.nx, rows: grid.ny })
          : t('gridResult.boxes', { room: room?.Name ?? t('gridResult.theRoom'), count: boxes.documents.length })}
      </p>
      <div className="template-actions">
        <Link className="button primary" to="/dashboard/rooms/$roomID" params={{ roomID: roomId }}>
          {t('gridResult.openRoom')}
        </Link>
        <button type="button" className="button" onClick={onClose}>
          {t('gridResult.done')}
        </button>
      </div>
    </section>
  );
}

/** The positions a SubGrid template made in a box, live: plant ids arrive with the pull once the division has synced. */
function SubGridResult({ boxId, boxName, onClose }: { boxId: string; boxName: string; onClose: () => void }) {
  const { t } = useTranslation(gridTemplatesTexts);
  const box = useLocalDocument<BoxDoc>('grid_boxes', boxId).document;
  const subs = subGridboxesOf(box).sort((a, b) => a.SubY - b.SubY || a.SubX - b.SubX);
  return (
    <section className="card template-result" aria-label={t('subGridResult.label')}>
      <div className="template-head">
        <h2>{t('subGridResult.heading', { box: boxName })}</h2>
        {subs.some((sub) => sub.pending) && <span className="chip waiting">{t('waitingToSync')}</span>}
      </div>
      <p>{t('subGridResult.positions', { count: subs.length })}</p>
      <ul className="result-positions" aria-label={t('subGridResult.positionsOf', { box: boxName })}>
        {subs.map((sub) => (
          <li key={String(sub.Sub_gridboxID)}>
            <strong>{subGridboxDisplayName(sub.CustomName, sub.SubX, sub.SubY)}</strong>
            <span className="muted">{sub.PlantID ?? (sub.pending ? t('subGridResult.plantIdAfterSync') : t('subGridResult.noPlantId'))}</span>
          </li>
        ))}
      </ul>
      <div className="template-actions">
        <Link className="button primary" to="/dashboard/plantMoves">
          {t('subGridResult.movePlants')}
        </Link>
        <button type="button" className="button" onClick={onClose}>
          {t('subGridResult.done')}
        </button>
      </div>
    </section>
  );
}
