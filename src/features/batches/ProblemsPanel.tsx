/**
 * A batch's problems (spec part 2 §3–§5): the open ones and those resolved, report a new one (type,
 * numeric severity, notes, optionally the room), and resolve them, all or narrowed by rooms and type.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { batchMessages, createBatchProblem, resolveBatchProblem } from '../../api/batches';
import { useAction, useToast } from '../../app/hooks';
import type { Places } from './hooks';
import { formatMoment, openProblems, problemsMatching, resolvedProblems, roomName, type LocalBatch, type UserLike, userName } from './model';
import type { BatchProblemRecord } from '../../../common/schemas/batches';
import { FormButtons, FormError } from '../shell/forms';
import { NameOptions, ProblemEntry } from './Entries';

export function ProblemsPanel(props: { batch: LocalBatch; places: Places; roomIds: string[]; userId: number | null; companyId: number | null; users: UserLike[]; knownTypes: string[] }) {
  const { batch, places } = props;
  const open = openProblems(batch);
  const resolved = resolvedProblems(batch);
  return (
    <div className="bt-problems-panel">
      <section aria-labelledby="open-problems">
        <h3 id="open-problems">Open problems ({open.length})</h3>
        {open.length === 0 ? <p className="muted">No open problems.</p> : <ProblemList problems={open} places={places} users={props.users} />}
      </section>
      <ReportProblem {...props} />
      {open.length > 0 && <ResolveProblems batch={batch} places={places} userId={props.userId} />}
      {resolved.length > 0 && (
        <details className="bt-resolved">
          <summary>Resolved problems ({resolved.length})</summary>
          <ProblemList problems={resolved} places={places} users={props.users} />
        </details>
      )}
    </div>
  );
}

function ProblemList(props: { problems: BatchProblemRecord[]; places: Places; users: UserLike[] }) {
  const sorted = [...props.problems].sort((a, b) => b.severity - a.severity || b.created_at.localeCompare(a.created_at));
  return (
    <ul className="bt-problem-list">
      {sorted.map((problem) => {
        const by = userName(props.users, problem.user_id);
        return (
          <ProblemEntry key={String(problem.problem_id)} problem={problem} places={props.places}>
            <small className="muted">
              Reported {formatMoment(problem.created_at)}
              {by ? ` by ${by}` : ''}
              {problem.resolved && ` · resolved ${formatMoment(problem.resolved_at)}${userName(props.users, problem.resolved_by) ? ` by ${userName(props.users, problem.resolved_by)}` : ''}`}
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
  const seenAt = props.at ? `Seen at ${props.at.place}.` : '';
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
      <h3 id="report-problem">Report a problem</h3>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="bt-form-row">
          <label>
            Problem type
            <input name="problemType" value={type} onChange={(event) => setType(event.target.value)} list="batch-problem-types" autoComplete="off" placeholder="e.g. Powdery mildew" />
            <datalist id="batch-problem-types">
              {props.knownTypes.map((known) => (
                <option key={known} value={known} />
              ))}
            </datalist>
          </label>
          <label>
            Severity
            <input name="severity" type="number" inputMode="decimal" step="any" value={severity} onChange={(event) => setSeverity(event.target.value)} placeholder="e.g. 3" />
          </label>
        </div>
        <label>
          Room (optional)
          <select value={roomId} onChange={(event) => setRoomId(event.target.value)}>
            <option value="">Not tied to a room</option>
            <NameOptions items={rooms} />
          </select>
        </label>
        <label>
          Notes (optional)
          <textarea name="notes" rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </label>
        <FormError banner error={create.error} />
        <FormButtons className="bt-row-actions" submitLabel="Report problem" busyLabel="Saving…" busy={create.busy} />
      </form>
    </section>
  );
}

function ResolveProblems(props: { batch: LocalBatch; places: Places; userId: number | null }) {
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
      toast(`Resolved ${count} problem${count === 1 ? '' : 's'} of batch ${props.batch.BatchNumber}.`, 'success');
      setChosenRooms([]);
      setType('');
    }
  }

  return (
    <section aria-labelledby="resolve-problems">
      <h3 id="resolve-problems">Resolve problems</h3>
      {rooms.length > 0 && (
        <fieldset className="bt-choices">
          <legend>Only in these rooms (none chosen: every room)</legend>
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
          Problem type
          <select value={liveType} onChange={(event) => setType(event.target.value)}>
            <option value="">Every type</option>
            {types.map((known) => (
              <option key={known}>{known}</option>
            ))}
          </select>
        </label>
      </div>
      <FormError banner error={resolve.error} />
      <div className="bt-row-actions">
        <button type="button" className="button primary" disabled={resolve.busy || matching.length === 0 || props.userId === null} onClick={() => void submit()}>
          {resolve.busy ? 'Resolving…' : `Resolve ${matching.length} problem${matching.length === 1 ? '' : 's'}`}
        </button>
      </div>
    </section>
  );
}
