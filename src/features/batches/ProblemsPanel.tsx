/**
 * A batch's problems (spec part 2 §3–§5): the open ones and those resolved, report a new one (type,
 * numeric severity, notes, optionally the room), and resolve them, all or narrowed by rooms and type.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { batchMessages, createBatchProblem, resolveBatchProblem } from '../../api/batches';
import { useAction, useToast } from '../../app/hooks';
import type { Places } from './hooks';
import { formatMoment, openProblems, problemsMatching, resolvedProblems, roomName, type LocalBatch, type UserLike, userName } from './model';
import type { BatchProblemRecord } from '../../../common/schemas/batches';
import { FormButtons, FormError } from '../shell/forms';
import { NameOptions, ProblemEntry } from './Entries';
import { batchesTexts } from './texts';

export function ProblemsPanel(props: { batch: LocalBatch; places: Places; roomIds: string[]; userId: number | null; companyId: number | null; users: UserLike[]; knownTypes: string[] }) {
  const { t } = useTranslation(batchesTexts);
  const { batch, places } = props;
  const open = openProblems(batch);
  const resolved = resolvedProblems(batch);
  return (
    <div className="bt-problems-panel">
      <section aria-labelledby="open-problems">
        <h3 id="open-problems">{t('problems.openHeading', { open: open.length })}</h3>
        {open.length === 0 ? <p className="muted">{t('problems.noOpen')}</p> : <ProblemList problems={open} places={places} users={props.users} />}
      </section>
      <ReportProblem {...props} />
      {open.length > 0 && <ResolveProblems batch={batch} places={places} userId={props.userId} />}
      {resolved.length > 0 && (
        <details className="bt-resolved">
          <summary>{t('problems.resolvedHeading', { resolved: resolved.length })}</summary>
          <ProblemList problems={resolved} places={places} users={props.users} />
        </details>
      )}
    </div>
  );
}

function ProblemList(props: { problems: BatchProblemRecord[]; places: Places; users: UserLike[] }) {
  const { t } = useTranslation(batchesTexts);
  const sorted = [...props.problems].sort((a, b) => b.severity - a.severity || b.created_at.localeCompare(a.created_at));
  return (
    <ul className="bt-problem-list">
      {sorted.map((problem) => {
        const by = userName(props.users, problem.user_id);
        const resolvedBy = userName(props.users, problem.resolved_by);
        return (
          <ProblemEntry key={String(problem.problem_id)} problem={problem} places={props.places}>
            <small className="muted">
              {by ? t('problems.reportedBy', { when: formatMoment(problem.created_at), user: by }) : t('problems.reported', { when: formatMoment(problem.created_at) })}
              {problem.resolved &&
                ` · ${resolvedBy ? t('problems.resolvedBy', { when: formatMoment(problem.resolved_at), user: resolvedBy }) : t('problems.resolved', { when: formatMoment(problem.resolved_at) })}`}
            </small>
          </ProblemEntry>
        );
      })}
    </ul>
  );
}

/**
 * Report a batch problem. `at` is where the grower stands (the room screen's box panel): its room is
 * chosen and the notes name the box, since a batch problem names a batch and a room, not a box.
 */
export function ReportProblem(props: { batch: LocalBatch; places: Places; roomIds: string[]; userId: number | null; companyId: number | null; knownTypes: string[]; at?: { roomId: string; place: string } }) {
  const { t } = useTranslation(batchesTexts);
  // Written into the notes when the form opens, in the reader's language (then the grower's own text).
  const seenAt = props.at ? t('problems.seenAt', { place: props.at.place }) : '';
  const [type, setType] = useState('');
  const [severity, setSeverity] = useState('');
  const [notes, setNotes] = useState(seenAt);
  const [roomId, setRoomId] = useState(props.at?.roomId ?? '');
  const create = useAction(createBatchProblem, batchMessages.problemCreated);
  // The batch's rooms first: a problem is usually seen where the batch grows.
  const rooms = [...props.roomIds.map((id) => props.places.roomsById.get(id)).filter((room) => room !== undefined), ...props.places.rooms.filter((room) => !props.roomIds.includes(room.id))];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await create.run({
      batchId: props.batch.BatchID,
      problemType: type.trim(),
      // Blank is not 0: the rule's own message says what is missing.
      severity: severity.trim() === '' ? Number.NaN : Number(severity),
      companyId: props.companyId ?? 0,
      userId: props.userId ?? 0,
      notes,
      roomId: roomId || null,
    });
    if (done) {
      setType('');
      setSeverity('');
      setNotes(seenAt);
    }
  }

  return (
    <section aria-labelledby="report-problem">
      <h3 id="report-problem">{t('problems.reportHeading')}</h3>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="bt-form-row">
          <label>
            {t('problems.problemType')}
            <input name="problemType" value={type} onChange={(event) => setType(event.target.value)} list="batch-problem-types" autoComplete="off" placeholder={t('problems.typePlaceholder')} />
            <datalist id="batch-problem-types">
              {props.knownTypes.map((known) => (
                <option key={known} value={known} />
              ))}
            </datalist>
          </label>
          <label>
            {t('problems.severity')}
            <input name="severity" type="number" inputMode="decimal" step="any" value={severity} onChange={(event) => setSeverity(event.target.value)} placeholder={t('problems.severityPlaceholder')} />
          </label>
        </div>
        <label>
          {t('problems.roomOptional')}
          <select value={roomId} onChange={(event) => setRoomId(event.target.value)}>
            <option value="">{t('problems.notTied')}</option>
            <NameOptions items={rooms} />
          </select>
        </label>
        <label>
          {t('problems.notesOptional')}
          <textarea name="notes" rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </label>
        <FormError banner error={create.error} />
        <FormButtons className="bt-row-actions" submitLabel={t('problems.report')} busyLabel={t('problems.saving')} busy={create.busy} />
      </form>
    </section>
  );
}

function ResolveProblems(props: { batch: LocalBatch; places: Places; userId: number | null }) {
  const { t } = useTranslation(batchesTexts);
  const open = openProblems(props.batch);
  const rooms = useMemo(() => [...new Set(open.filter((problem) => problem.room_id !== null).map((problem) => String(problem.room_id)))], [open]);
  const types = useMemo(() => [...new Set(open.map((problem) => problem.problem_type))].sort((a, b) => a.localeCompare(b)), [open]);
  const [chosenRooms, setChosenRooms] = useState<string[]>([]);
  const [type, setType] = useState('');
  const resolve = useAction(resolveBatchProblem);
  const toast = useToast();
  const liveRooms = chosenRooms.filter((id) => rooms.includes(id));
  const liveType = types.includes(type) ? type : '';
  const matching = problemsMatching(props.batch, liveRooms, liveType);

  async function submit() {
    if (props.userId === null) return;
    const count = matching.length;
    const done = await resolve.run({ batchId: props.batch.BatchID, userId: props.userId, roomIds: liveRooms, problemType: liveType || null });
    if (done) {
      toast(t('problems.resolvedToast', { count, number: props.batch.BatchNumber }), 'success');
      setChosenRooms([]);
      setType('');
    }
  }

  return (
    <section aria-labelledby="resolve-problems">
      <h3 id="resolve-problems">{t('problems.resolveHeading')}</h3>
      {rooms.length > 0 && (
        <fieldset className="bt-choices">
          <legend>{t('problems.onlyRooms')}</legend>
          {rooms.map((id) => (
            <label key={id} className="bt-choice">
              <input type="checkbox" checked={liveRooms.includes(id)} onChange={() => setChosenRooms((list) => (list.includes(id) ? list.filter((item) => item !== id) : [...list, id]))} />
              <span>{roomName(props.places.roomsById.get(id))}</span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="form">
        <label>
          {t('problems.problemType')}
          <select value={liveType} onChange={(event) => setType(event.target.value)}>
            <option value="">{t('problems.everyType')}</option>
            {types.map((known) => (
              <option key={known}>{known}</option>
            ))}
          </select>
        </label>
      </div>
      <FormError banner error={resolve.error} />
      <div className="bt-row-actions">
        <button type="button" className="button primary" disabled={resolve.busy || matching.length === 0 || props.userId === null} onClick={() => void submit()}>
          {resolve.busy ? t('problems.resolving') : t('problems.resolve', { count: matching.length })}
        </button>
      </div>
    </section>
  );
}
