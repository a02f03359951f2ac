/**
 * The panel of one grid box (a plant position), opened by tapping it: rename, cull or un-cull (as the
 * signed-in user), link to a batch from this tablet's batches, its batches, and its sub-gridboxes
 * (list, divide into nx × ny, edit, and for Admins delete), "Fill a form" for this box, its plant problems
 * (BoxProblems) and a batch problem for its batch, and last its latest observations (each with "Make a
 * task": tasks/BoxObservations.tsx); a box inside a
 * re-entry interval says until when, first. Every change is queued and shows
 * at once.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { batchMessages } from '../../../common/messages/batches';
import { gridMessages } from '../../../common/messages/grids';
import { subgridMessages } from '../../../common/messages/subgrids';
import { linkGridboxBatch } from '../../api/batches';
import { updateCullingStatus, updateGridBoxName } from '../../api/grids';
import { reachedServer } from '../../api/records';
import { createSubGridboxes, deleteSubGridbox, gridPositions, type SubGridbox, subGridboxesOf, updateSubGridbox } from '../../api/subgrids';
import { useAction, type SignedInUser } from '../../app/hooks';
import { type BatchDoc, type BoxDoc, byName, type CompanyDoc, type GridDoc, userName, when } from './model';
import { TemplateChooser } from '../forms/fill/TemplateChooser';
import { usePlaces } from '../batches/hooks';
import type { LocalBatch } from '../batches/model';
import { ReportProblem } from '../batches/ProblemsPanel';
import { ConfirmPanel, Field, FormButtons, FormError } from '../shell/forms';
import { BoxObservations } from '../tasks/BoxObservations';
import type { Reentry } from '../treatments/intervals';
import { statusName } from '../batches/texts';
import { roomsTexts } from './texts';

/**
 * The box's plant problems carry the problem catalogue (its type search): a chunk of their own, so a
 * room opens without it. It is asked for as soon as the panel's own chunk loads (the room loads that
 * when it is idle after its boxes paint), so the panel's first tap does not wait for it.
 */
const boxProblems = lazyChunk(async () => (await import('./BoxProblems')).BoxProblems);
void boxProblems.preload();

export function BoxPanel(props: {
  box: BoxDoc;
  grid: GridDoc;
  number: number;
  label: string;
  /** The box's running re-entry interval (RoomScreen), or null. */
  reentry: Reentry | null;
  batches: BatchDoc[]; company: CompanyDoc | null; user: SignedInUser; onClose: () => void }) {
  const { t } = useTranslation(roomsTexts);
  const { box, grid, user, onClose } = props;
  const boxId = box.id;

  // Focus moves into the panel when it opens (keyboards and screen readers start there).
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), [box.id]);
  // Escape closes the panel, as growers with a keyboard expect.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <div className="panel-backdrop" onClick={props.onClose}>
      <aside ref={panel} tabIndex={-1} className="box-panel" role="dialog" aria-modal="true" aria-labelledby="box-panel-title" onClick={(event) => event.stopPropagation()}>
        <div className="panel-head">
          <h2 id="box-panel-title">{props.label}</h2>
          <button type="button" className="button" onClick={props.onClose}>
            {t('panel.close')}
          </button>
        </div>
        <p className="muted">{t('panel.position', { grid: grid.Name ?? '', number: props.number, x: box.X ?? '', y: box.Y ?? '' })}</p>
        {props.reentry && <ReentrySection reentry={props.reentry} />}
        <FormSection box={box} grid={grid} user={user} />
        <Suspense fallback={<ChunkFallback>{t('panel.loadingProblems')}</ChunkFallback>}>
          <boxProblems.Component box={box} user={user} company={props.company} />
        </Suspense>
        <ProblemSection box={box} grid={grid} label={props.label} batches={props.batches} user={user} />
        <CullSection box={box} boxId={boxId} user={user} company={props.company} />
        <RenameSection box={box} boxId={boxId} />
        <BatchSection box={box} boxId={boxId} batches={props.batches} />
        <SubGridboxSection box={box} boxId={boxId} user={user} />
        <BoxObservations boxId={boxId} roomId={grid.roomId} gridId={grid.id} company={props.company} />
      </aside>
    </div>
  );
}

type BoxId = string;

/** First in the panel: whoever opens a box sprayed lately learns before anything else that it is closed, and until when. */
function ReentrySection({ reentry }: { reentry: Reentry }) {
  const { t } = useTranslation(roomsTexts);
  const time = { time: <time dateTime={reentry.until} /> };
  const until = when(reentry.until);
  return (
    <section className="panel-section" aria-label={t('panel.reentry.label')}>
      <h3>{t('panel.reentry.heading')}</h3>
      <p className="reentry-notice">
        {reentry.products.length ? (
          <Trans t={t} i18nKey="panel.reentry.sprayedWith" values={{ products: reentry.products.join(', '), until }} components={time} />
        ) : (
          <Trans t={t} i18nKey="panel.reentry.sprayed" values={{ until }} components={time} />
        )}
      </p>
    </section>
  );
}

/** The company's forms, each opening the fill screen for this box (which returns to the room). */
function FormSection({ box, grid, user }: { box: BoxDoc; grid: GridDoc; user: SignedInUser }) {
  const { t } = useTranslation(roomsTexts);
  const [open, setOpen] = useState(false);
  return (
    <section className="panel-section" aria-label={t('panel.forms.label')}>
      <h3>{t('panel.forms.heading')}</h3>
      <button type="button" className="button primary" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('panel.forms.fill')}
      </button>
      {open && <TemplateChooser companyId={user.companyId} search={{ boxes: box.id, room: grid.roomId }} label={t('panel.forms.chooserLabel')} />}
    </section>
  );
}

/**
 * A problem of one of the box's batches as a whole (a batch problem names a batch and a room, not a
 * box), reported where the grower stands: in this room, the box named in the notes. Kept beside the
 * box's own plant problems (BoxProblems) for what concerns the batch's record rather than this box;
 * shown only when the box has a batch.
 */
function ProblemSection({ box, grid, label, batches, user }: { box: BoxDoc; grid: GridDoc; label: string; batches: BatchDoc[]; user: SignedInUser }) {
  const { t } = useTranslation(roomsTexts);
  const [open, setOpen] = useState(false);
  const [chosenId, setChosenId] = useState('');
  const places = usePlaces();
  const linked = useMemo(() => {
    const ids = new Set((box.BatchIDs ?? []).map(String));
    return batches.filter((batch) => ids.has(batch.id)).sort((a, b) => byName({ Name: a.BatchNumber }, { Name: b.BatchNumber }));
  }, [box.BatchIDs, batches]);
  const knownTypes = useMemo(() => [...new Set(batches.flatMap((batch) => (batch.problems ?? []).map((problem) => problem.problem_type)))].sort(), [batches]);
  const batch = linked.find((candidate) => candidate.id === chosenId) ?? linked[0];
  return (
    <section className="panel-section" aria-label={t('panel.batchProblems.label')}>
      <h3>{t('panel.batchProblems.heading')}</h3>
      {!batch ? (
        <p className="muted">{t('panel.batchProblems.noBatch')}</p>
      ) : (
        <>
          <button type="button" className="button" aria-expanded={open} onClick={() => setOpen(!open)}>
            {t('panel.batchProblems.report')}
          </button>
          {open && (
            <>
              {linked.length > 1 && (
                <Field label={t('panel.batchProblems.batch')}>
                  <select value={batch.id} onChange={(event) => setChosenId(event.target.value)}>
                    {linked.map((candidate) => (
                      <option key={candidate.id} value={candidate.id}>
                        {candidate.BatchNumber}
                      </option>
                    ))}
                  </select>
                </Field>
              )}
              <ReportProblem
                key={batch.id}
                batch={batch as LocalBatch}
                places={places}
                roomIds={[grid.roomId]}
                userId={user.userId}
                companyId={user.companyId}
                knownTypes={knownTypes}
                at={{ roomId: grid.roomId, place: `${grid.Name ?? t('grid.unnamed')} · ${label}` }}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}

function CullSection({ box, boxId, user, company }: { box: BoxDoc; boxId: BoxId; user: SignedInUser; company: CompanyDoc | null }) {
  const { t } = useTranslation(roomsTexts);
  const cull = useAction(updateCullingStatus, gridMessages.cullingUpdated);
  const culled = box.culled === true;
  const by = userName(company, box.CulledBy);
  const at = when(box.CulledDateTime);
  const state = !culled
    ? t('panel.culling.notCulled')
    : at && by
      ? t('panel.culling.culledAtBy', { at, by })
      : at
        ? t('panel.culling.culledAt', { at })
        : by
          ? t('panel.culling.culledBy', { by })
          : t('panel.culling.culled');
  return (
    <section className="panel-section" aria-label={t('panel.culling.label')}>
      <h3>{t('panel.culling.heading')}</h3>
      <p className={culled ? 'culled-text' : ''}>{state}</p>
      <button type="button" className={`button ${culled ? '' : 'danger'}`} disabled={cull.busy} onClick={() => void cull.run({ gridBoxId: boxId, userId: user.userId, culled: !culled })}>
        {culled ? t('panel.culling.uncull') : t('panel.culling.cull')}
      </button>
    </section>
  );
}

function RenameSection({ box, boxId }: { box: BoxDoc; boxId: BoxId }) {
  const { t } = useTranslation(roomsTexts);
  const [name, setName] = useState(box.CustomName ?? '');
  const rename = useAction(updateGridBoxName, gridMessages.nameUpdated);
  // Another box opened in the same panel, or the name changed from elsewhere: show the current one.
  useEffect(() => setName(box.CustomName ?? ''), [box.id, box.CustomName]);
  async function submit(event: FormEvent) {
    event.preventDefault();
    // An empty name clears it (spec part 1 §5: the custom name may be empty); the box shows its number again.
    await rename.run({ gridBoxId: boxId, customName: name.trim() });
  }
  return (
    <section className="panel-section" aria-label={t('panel.name.label')}>
      <h3>{t('panel.name.heading')}</h3>
      <form className="form inline-form" onSubmit={(event) => void submit(event)}>
        <label>
          {t('panel.name.customName')}
          <input name="customName" value={name} onChange={(event) => setName(event.target.value)} placeholder={t('panel.name.placeholder')} autoComplete="off" />
        </label>
        <button type="submit" className="button primary" disabled={rename.busy || name.trim() === (box.CustomName ?? '')}>
          {t('panel.name.save')}
        </button>
      </form>
      {rename.error && (
        <p className="error-text" role="alert">
          {rename.error}
        </p>
      )}
    </section>
  );
}

function BatchSection({ box, boxId, batches }: { box: BoxDoc; boxId: BoxId; batches: BatchDoc[] }) {
  const { t } = useTranslation(roomsTexts);
  const linkedIds = useMemo(() => new Set((box.BatchIDs ?? []).map(String)), [box.BatchIDs]);
  const linked = batches.filter((batch) => linkedIds.has(batch.id));
  // Linked ids this tablet has no batch for (e.g. not pulled yet) still count, shown plainly.
  const unknown = [...linkedIds].filter((id) => !batches.some((batch) => batch.id === id));
  const choices = useMemo(() => batches.filter((batch) => !linkedIds.has(batch.id)).sort((a, b) => byName({ Name: a.BatchNumber }, { Name: b.BatchNumber })), [batches, linkedIds]);
  const [chosen, setChosen] = useState('');
  const link = useAction(linkGridboxBatch, batchMessages.linkedToBoxes);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const batch = batches.find((candidate) => candidate.id === chosen);
    if (!batch) return;
    if (await link.run({ batchId: batch.id, gridBoxIds: [boxId] })) setChosen('');
  }
  return (
    <section className="panel-section" aria-label={t('panel.batches.label')}>
      <h3>{t('panel.batches.heading')}</h3>
      {linked.length === 0 && unknown.length === 0 ? (
        <p className="muted">{t('panel.batches.none')}</p>
      ) : (
        <ul className="plain-list" aria-label={t('panel.batches.linked')}>
          {linked.map((batch) => (
            <li key={batch.id}>
              {batch.Color && <span className="swatch" style={{ backgroundColor: batch.Color }} aria-hidden="true" />}
              {!reachedServer(batch) ? (
                <strong>{batch.BatchNumber}</strong>
              ) : (
                <Link to="/dashboard/batch-info/$batchId" params={{ batchId: batch.id }}>
                  {batch.BatchNumber}
                </Link>
              )}{' '}
              <span className="muted">
                {[batch.StrainName, statusName(batch.BatchStatus)].filter(Boolean).join(' · ')}
              </span>
            </li>
          ))}
          {unknown.map((id) => (
            <li key={id} className="muted">
              {t('panel.batches.unknown')}
            </li>
          ))}
        </ul>
      )}
      {choices.length > 0 ? (
        <form className="form inline-form" onSubmit={(event) => void submit(event)}>
          <label>
            {t('panel.batches.batch')}
            <select name="batch" aria-label={t('panel.batches.batch')} value={chosen} onChange={(event) => setChosen(event.target.value)}>
              <option value="">{t('panel.batches.choose')}</option>
              {choices.map((batch) => (
                <option key={batch.id} value={batch.id}>
                  {[batch.BatchNumber, batch.StrainName].filter(Boolean).join(' — ')}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button primary" disabled={!chosen || link.busy}>
            {t('panel.batches.link')}
          </button>
        </form>
      ) : (
        <p className="muted">{batches.length === 0 ? t('panel.batches.noneOnTablet') : t('panel.batches.allLinked')}</p>
      )}
      {link.error && (
        <p className="error-text" role="alert">
          {link.error}
        </p>
      )}
    </section>
  );
}

/** The name a sub-gridbox shows when it has none of its own (spec §3). */
const defaultSubName = (sub: SubGridbox) => `Sub-${sub.SubX}-${sub.SubY}`;

/**
 * One sub-gridbox: its name, plant id and status; Edit changes name, plant id, status and notes (only
 * what changed is sent; a blank name goes back to 'Sub-{SubX}-{SubY}'); Admins also delete it, after
 * confirming (the server allows deleting to Admins only).
 */
function SubGridboxItem({ sub, boxId, user }: { sub: SubGridbox; boxId: BoxId; user: SignedInUser }) {
  const { t } = useTranslation(roomsTexts);
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState(false);
  const ownName = sub.CustomName === defaultSubName(sub) ? '' : sub.CustomName;
  const [name, setName] = useState(ownName);
  const [plantId, setPlantId] = useState(sub.PlantID ?? '');
  const [status, setStatus] = useState(sub.Status ?? '');
  const [content, setContent] = useState(sub.Content ?? '');
  const update = useAction(updateSubGridbox, subgridMessages.updated);
  const remove = useAction(deleteSubGridbox, subgridMessages.deleted);
  const label = sub.CustomName || defaultSubName(sub);

  function startEditing() {
    setName(ownName);
    setPlantId(sub.PlantID ?? '');
    setStatus(sub.Status ?? '');
    setContent(sub.Content ?? '');
    setEditing(true);
  }
  async function save(event: FormEvent) {
    event.preventDefault();
    const changed = <T,>(value: T, before: T) => (value === before ? undefined : value);
    const changes = {
      customName: changed(name.trim(), ownName),
      plantId: changed(plantId.trim() || null, sub.PlantID ?? null),
      status: changed(status.trim() || null, sub.Status ?? null),
      content: changed(content.trim() || null, sub.Content ?? null),
    };
    // Nothing changed: nothing to send.
    if (Object.values(changes).every((value) => value === undefined)) return setEditing(false);
    if (await update.run({ subGridboxId: sub.Sub_gridboxID, parentGridboxId: boxId, ...changes })) setEditing(false);
  }
  return (
    <li className="sub-item">
      <div className="sub-line">
        <strong>{label}</strong>
        {/* The server gives plant ids; a sub-gridbox made on this tablet gets its id when it syncs. */}
        <span className="muted">{sub.PlantID ?? (sub.pending ? t('panel.subs.plantIdAfterSync') : t('panel.subs.noPlantId'))}</span>
        {sub.Status && <span className="chip">{sub.Status}</span>}
        {!editing && !asking && (
          <span className="sub-actions">
            <button type="button" className="button" onClick={startEditing} aria-label={t('panel.subs.editLabel', { name: label })}>
              {t('panel.subs.edit')}
            </button>
            {user.isAdmin && (
              <button type="button" className="button danger" onClick={() => setAsking(true)} aria-label={t('panel.subs.deleteLabel', { name: label })}>
                {t('panel.subs.delete')}
              </button>
            )}
          </span>
        )}
      </div>
      {sub.Content && !editing && <p className="muted sub-notes">{sub.Content}</p>}
      {asking && (
        <ConfirmPanel
          question={t('panel.subs.deleteQuestion', { name: label })}
          message={t('panel.subs.deleteMessage', { name: label })}
          busy={remove.busy}
          onConfirm={() => void remove.run({ subGridboxId: sub.Sub_gridboxID, parentGridboxId: boxId })}
          onKeep={() => setAsking(false)}
        />
      )}
      {editing && (
        <form className="form sub-edit" aria-label={t('panel.subs.editLabel', { name: label })} onSubmit={(event) => void save(event)}>
          <Field label={t('panel.subs.name')}>
            <input value={name} placeholder={defaultSubName(sub)} onChange={(event) => setName(event.target.value)} autoComplete="off" />
          </Field>
          <Field label={t('panel.subs.plantId')}>
            <input value={plantId} onChange={(event) => setPlantId(event.target.value)} autoComplete="off" />
          </Field>
          <Field label={t('panel.subs.status')}>
            <input value={status} onChange={(event) => setStatus(event.target.value)} autoComplete="off" />
          </Field>
          <Field label={t('panel.subs.notes')}>
            <textarea value={content} rows={2} onChange={(event) => setContent(event.target.value)} />
          </Field>
          <FormError error={update.error} />
          <FormButtons submitLabel={t('panel.subs.save')} busy={update.busy} onCancel={() => setEditing(false)} />
        </form>
      )}
    </li>
  );
}

/** A whole number typed in a field, or undefined when blank (createSubGridboxes then gives the spec's message). */
const wholeOrUndefined = (value: string) => (value.trim() === '' ? undefined : Number(value));

function SubGridboxSection({ box, boxId, user }: { box: BoxDoc; boxId: BoxId; user: SignedInUser }) {
  const { t } = useTranslation(roomsTexts);
  const subs = subGridboxesOf(box);
  const [nx, setNx] = useState('2');
  const [ny, setNy] = useState('2');
  const create = useAction(createSubGridboxes, subgridMessages.created);
  /** A layout asked for again, every position of which exists already. */
  const [notice, setNotice] = useState<{ columns: number; rows: number } | null>(null);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const columns = wholeOrUndefined(nx);
    const rows = wholeOrUndefined(ny);
    if (subs.length > 0 && columns !== undefined && rows !== undefined && Number.isInteger(columns) && Number.isInteger(rows) && columns > 0 && rows > 0) {
      // Decision: a box already divided grows to the nx × ny layout asked for: only the positions it
      // lacks are created (as custom positions), since asking again for taken ones would be refused.
      const missing = gridPositions(columns, rows).filter((position) => !subs.some((sub) => sub.SubX === position.subx && sub.SubY === position.suby));
      if (missing.length === 0) {
        setNotice({ columns, rows });
        return;
      }
      await create.run({ parentGridboxId: boxId, userId: user.userId, customPositions: missing });
      return;
    }
    await create.run({ parentGridboxId: boxId, userId: user.userId, nx: columns, ny: rows });
  }
  return (
    <section className="panel-section" aria-label={t('panel.subs.label')}>
      <h3>{t('panel.subs.heading')}</h3>
      {subs.length === 0 ? (
        <p className="muted">{t('panel.subs.notDivided')}</p>
      ) : (
        <ul className="sub-list" aria-label={t('panel.subs.listLabel')}>
          {subs.map((sub) => (
            <SubGridboxItem key={String(sub.Sub_gridboxID)} sub={sub} boxId={boxId} user={user} />
          ))}
        </ul>
      )}
      <form className="form inline-form" onSubmit={(event) => void submit(event)} noValidate>
        <label>
          {t('panel.subs.columns')}
          <input name="subNx" type="number" inputMode="numeric" min={1} value={nx} onChange={(event) => setNx(event.target.value)} />
        </label>
        <label>
          {t('panel.subs.rows')}
          <input name="subNy" type="number" inputMode="numeric" min={1} value={ny} onChange={(event) => setNy(event.target.value)} />
        </label>
        <button type="submit" className="button" disabled={create.busy}>
          {subs.length ? t('panel.subs.grow') : t('panel.subs.divide')}
        </button>
      </form>
      {notice && <p className="muted">{t('panel.subs.layoutExists', notice)}</p>}
      {create.error && (
        <p className="error-text" role="alert">
          {create.error}
        </p>
      )}
    </section>
  );
}
