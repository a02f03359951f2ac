/**
 * A box's plant problems in its panel (issue 14 "Problems on plants"): record one where the grower stands
 * (on the box or on one of its plants), its type picked from the catalogue by searching or typed as the
 * company's own, severity 1–5 on large buttons, notes and a photo; the box's open problems with who saw
 * them and when, and Treated / Resolve / False alarm; closed ones can be reopened. Everything is recorded
 * through the outbox and shows at once, offline too.
 */
import { type FormEvent, useId, useMemo, useState } from 'react';
import { OPEN_PROBLEM_STATUSES, type ProblemAction, SEVERITY_MAX, SEVERITY_MIN, problemMessages as m } from '../../../common/messages/problems';
import { CATALOGUE, catalogueProblemNamed } from '../../../common/plant-problems';
import { manageProblem, type PlantProblemDocument, recordProblem } from '../../api/problems';
import { subGridboxesOf } from '../../api/subgrids';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { RecordStatus } from '../shell/RecordStatus';
import { FormButtons, FormError } from '../shell/forms';
import { type BoxDoc, type CompanyDoc, userName, when } from './model';

const SEVERITIES = Array.from({ length: SEVERITY_MAX - SEVERITY_MIN + 1 }, (_, index) => SEVERITY_MIN + index);
const SEVERITY_WORDS: Record<number, string> = { 1: 'a few signs', 2: 'light', 3: 'moderate', 4: 'heavy', 5: 'severe' };
/** How many catalogue matches the search shows at once (a tablet's screen, not a page of results). */
const MATCHES_SHOWN = 6;

const isOpen = (problem: PlantProblemDocument) => (OPEN_PROBLEM_STATUSES as readonly string[]).includes(problem.status);
const newestFirst = (a: PlantProblemDocument, b: PlantProblemDocument) => (a.observed_at < b.observed_at ? 1 : a.observed_at > b.observed_at ? -1 : 0);

/** The actions a problem in its status can take, as the server applies them (ACTION_APPLIES_TO). */
const ACTIONS_OF: Record<PlantProblemDocument['status'], Array<{ action: ProblemAction; label: string }>> = {
  unresolved: [
    { action: 'treat', label: 'Treated' },
    { action: 'resolve', label: 'Resolve' },
    { action: 'dismiss', label: 'False alarm' },
  ],
  treated: [
    { action: 'resolve', label: 'Resolve' },
    { action: 'dismiss', label: 'False alarm' },
  ],
  resolved: [{ action: 'reopen', label: 'Reopen' }],
  dismissed: [{ action: 'reopen', label: 'Reopen' }],
};

const STATUS_WORDS: Record<PlantProblemDocument['status'], string> = { unresolved: 'Open', treated: 'Treated', resolved: 'Resolved', dismissed: 'False alarm' };

export function BoxProblems({ box, user, company }: { box: BoxDoc; user: SignedInUser; company: CompanyDoc | null }) {
  const { documents, loading } = useLocalQuery<PlantProblemDocument>('plant_problems', { gridBoxId: box.id }, box.id);
  const online = useSyncStatus((status) => status.online);
  const [recording, setRecording] = useState(false);
  const problems = useMemo(() => [...documents].sort(newestFirst), [documents]);
  const open = problems.filter(isOpen);
  const closed = problems.filter((problem) => !isOpen(problem));
  const plants = subGridboxesOf(box);
  const plantName = (id: unknown) => {
    const plant = plants.find((candidate) => String(candidate.Sub_gridboxID) === String(id));
    return plant ? plant.CustomName || `Sub-${plant.SubX}-${plant.SubY}` : 'a plant';
  };
  return (
    <section className="panel-section" aria-label="Plant problems">
      <h3>Plant problems</h3>
      {!online && <p className="muted">Offline: problems recorded now show at once and are sent when the tablet is back online.</p>}
      <button type="button" className="button primary" aria-expanded={recording} onClick={() => setRecording(!recording)}>
        Record a problem
      </button>
      {recording && <RecordProblemForm box={box} user={user} onDone={() => setRecording(false)} />}
      {loading ? (
        <p className="muted" role="status">
          Loading problems…
        </p>
      ) : open.length === 0 ? (
        <p className="muted">No open problems on this box.</p>
      ) : (
        <ul className="problem-list" aria-label="Open problems">
          {open.map((problem) => (
            <ProblemItem key={problem.id} problem={problem} user={user} company={company} where={problem.sub_gridbox_id === null ? null : plantName(problem.sub_gridbox_id)} />
          ))}
        </ul>
      )}
      {closed.length > 0 && (
        <details className="problem-closed">
          <summary>Closed problems ({closed.length})</summary>
          <ul className="problem-list" aria-label="Closed problems">
            {closed.map((problem) => (
              <ProblemItem key={problem.id} problem={problem} user={user} company={company} where={problem.sub_gridbox_id === null ? null : plantName(problem.sub_gridbox_id)} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function ProblemItem({ problem, user, company, where }: { problem: PlantProblemDocument; user: SignedInUser; company: CompanyDoc | null; where: string | null }) {
  const manage = useAction(manageProblem, 'Problem updated.');
  const by = userName(company, problem.user_id);
  const changedBy = userName(company, problem.status_by);
  const name = problem.problem_type;
  return (
    <li className="problem-item" aria-label={`${name}, severity ${problem.severity}`}>
      <div className="problem-line">
        <strong>{name}</strong>
        <span className={`severity-badge severity-${problem.severity}`}>Severity {problem.severity}</span>
        <span className={`chip problem-status status-${problem.status}`}>{STATUS_WORDS[problem.status]}</span>
        <RecordStatus document={problem} waitingLabel={problem.photo_pending ? 'Waiting to sync (with photo)' : 'Waiting to sync'} />
      </div>
      <p className="muted problem-meta">
        {[where ? `On ${where}` : 'On the box', `seen ${when(problem.observed_at)}`, by ? `by ${by}` : ''].filter(Boolean).join(' · ')}
        {problem.status_at && problem.status !== 'unresolved' ? ` · ${STATUS_WORDS[problem.status].toLowerCase()} ${when(problem.status_at)}${changedBy ? ` by ${changedBy}` : ''}` : ''}
      </p>
      {problem.notes && <p className="problem-notes">{problem.notes}</p>}
      {problem.image && <img className="problem-photo" src={problem.image} alt={`Photo of ${name}`} loading="lazy" />}
      <div className="problem-actions" role="group" aria-label={`Actions on ${name}`}>
        {ACTIONS_OF[problem.status].map(({ action, label }) => (
          <button
            key={action}
            type="button"
            className={`button ${action === 'resolve' ? 'primary' : ''}`}
            disabled={manage.busy}
            aria-label={`${label}: ${name}`}
            onClick={() => void manage.run({ problemId: problem.id, action, userId: user.userId })}
          >
            {label}
          </button>
        ))}
      </div>
      <FormError error={manage.error} />
    </li>
  );
}

function RecordProblemForm({ box, user, onDone }: { box: BoxDoc; user: SignedInUser; onDone: () => void }) {
  const plants = subGridboxesOf(box).filter((plant) => !plant.IsDeleted);
  const [plantId, setPlantId] = useState('');
  const [type, setType] = useState('');
  const [severity, setSeverity] = useState<number | null>(null);
  const [notes, setNotes] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const record = useAction(recordProblem, m.problemRecorded, { inlineErrors: true });
  const ids = useId();
  const catalogued = type.trim() ? catalogueProblemNamed(type) : undefined;
  const matches = useMemo(() => {
    const query = type.trim().toLowerCase();
    if (!query || catalogued) return [];
    return CATALOGUE.filter((problem) => problem.name.toLowerCase().includes(query) || (problem.scientific_name ?? '').toLowerCase().includes(query)).slice(0, MATCHES_SHOWN);
  }, [type, catalogued]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const done = await record.run({
      gridBoxId: box.id,
      subGridboxId: plantId || null,
      problemType: type,
      problemSlug: catalogued?.slug ?? null,
      // None chosen: the schema's own message says what is missing.
      severity: severity ?? '',
      notes: notes.trim() || null,
      photo,
      userId: user.userId,
    });
    if (done) onDone();
  }

  return (
    <form className="form problem-form" aria-label="Record a problem" onSubmit={(event) => void submit(event)} noValidate>
      {plants.length > 0 && (
        <label>
          Where
          <select value={plantId} onChange={(event) => setPlantId(event.target.value)}>
            <option value="">The whole box</option>
            {plants.map((plant) => (
              <option key={String(plant.Sub_gridboxID)} value={String(plant.Sub_gridboxID)}>
                {plant.CustomName || `Sub-${plant.SubX}-${plant.SubY}`}
                {plant.PlantID ? ` (${plant.PlantID})` : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Problem type
        <input name="problemType" type="search" value={type} onChange={(event) => setType(event.target.value)} autoComplete="off" placeholder="Search the catalogue, or type your own" aria-describedby={`${ids}-type-hint`} />
      </label>
      <p id={`${ids}-type-hint`} className="muted problem-type-hint">
        {!type.trim() ? 'Search pests, diseases and disorders by name.' : catalogued ? `From the catalogue: ${catalogued.name} (${catalogued.kind}).` : 'Not in the catalogue: it is recorded as your company’s own type.'}
      </p>
      {matches.length > 0 && (
        <ul className="catalogue-matches" aria-label="Catalogue matches">
          {matches.map((problem) => (
            <li key={problem.slug}>
              <button type="button" className="button" onClick={() => setType(problem.name)}>
                {problem.name}
                <span className="muted"> · {problem.kind}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="severity-picker" role="group" aria-label="Severity">
        <span className="severity-label">Severity</span>
        {SEVERITIES.map((value) => (
          <button key={value} type="button" className="button severity-button" aria-pressed={severity === value} aria-label={`Severity ${value}: ${SEVERITY_WORDS[value] ?? ''}`} onClick={() => setSeverity(value)}>
            {value}
          </button>
        ))}
      </div>
      <label>
        Notes (optional)
        <textarea name="notes" rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </label>
      <label className="button file-button">
        {photo ? `Photo: ${photo.name}` : 'Add a photo (optional)'}
        <input type="file" accept="image/*" capture="environment" onChange={(event) => setPhoto(event.target.files?.[0] ?? null)} />
      </label>
      <FormError error={record.error} />
      <FormButtons submitLabel="Save problem" busyLabel="Saving…" busy={record.busy} onCancel={onDone} />
    </form>
  );
}
