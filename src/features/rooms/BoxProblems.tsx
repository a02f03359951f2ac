/**
 * A box's plant problems in its panel (issue 14 "Problems on plants"): record one where the grower stands
 * (on the box or on one of its plants), its type picked from the catalogue by searching or typed as the
 * company's own, severity 1–5 on large buttons, notes and a photo; the box's open problems with who saw
 * them and when, and Treated / Resolve / False alarm; closed ones can be reopened. Everything is recorded
 * through the outbox and shows at once, offline too.
 */
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OPEN_PROBLEM_STATUSES, type ProblemAction, SEVERITY_MAX, SEVERITY_MIN, problemMessages as m } from '../../../common/messages/problems';
import { CATALOGUE, catalogueProblemNamed } from '../../../common/plant-problems';
import { manageProblem, type PlantProblemDocument, recordProblem } from '../../api/problems';
import { subGridboxesOf } from '../../api/subgrids';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { RecordStatus } from '../shell/RecordStatus';
import { FormButtons, FormError } from '../shell/forms';
import { type BoxDoc, type CompanyDoc, userName, when } from './model';
import { roomsTexts } from './texts';

const SEVERITIES = Array.from({ length: SEVERITY_MAX - SEVERITY_MIN + 1 }, (_, index) => SEVERITY_MIN + index);
/** Each severity's word (problems.severityWords in locales). */
const SEVERITY_WORDS: Record<number, 'aFewSigns' | 'light' | 'moderate' | 'heavy' | 'severe'> = { 1: 'aFewSigns', 2: 'light', 3: 'moderate', 4: 'heavy', 5: 'severe' };
/** How many catalogue matches the search shows at once (a tablet's screen, not a page of results). */
const MATCHES_SHOWN = 6;

const isOpen = (problem: PlantProblemDocument) => (OPEN_PROBLEM_STATUSES as readonly string[]).includes(problem.status);
const newestFirst = (a: PlantProblemDocument, b: PlantProblemDocument) => (a.observed_at < b.observed_at ? 1 : a.observed_at > b.observed_at ? -1 : 0);

/** The actions a problem in its status can take, as the server applies them (ACTION_APPLIES_TO); each button says problems.actions.<action>. */
const ACTIONS_OF: Record<PlantProblemDocument['status'], ProblemAction[]> = {
  unresolved: ['treat', 'resolve', 'dismiss'],
  treated: ['resolve', 'dismiss'],
  resolved: ['reopen'],
  dismissed: ['reopen'],
};

export function BoxProblems({ box, user, company }: { box: BoxDoc; user: SignedInUser; company: CompanyDoc | null }) {
  const { t } = useTranslation(roomsTexts);
  const { documents, loading } = useLocalQuery<PlantProblemDocument>('plant_problems', { gridBoxId: box.id }, box.id);
  const online = useSyncStatus((status) => status.online);
  const [recording, setRecording] = useState(false);
  const problems = useMemo(() => [...documents].sort(newestFirst), [documents]);
  const open = problems.filter(isOpen);
  const closed = problems.filter((problem) => !isOpen(problem));
  const plants = subGridboxesOf(box);
  const plantName = (id: unknown) => {
    const plant = plants.find((candidate) => String(candidate.Sub_gridboxID) === String(id));
    return plant ? plant.CustomName || `Sub-${plant.SubX}-${plant.SubY}` : t('problems.aPlant');
  };
  return (
    <section className="panel-section" aria-label={t('problems.label')}>
      <h3>{t('problems.heading')}</h3>
      {!online && <p className="muted">{t('problems.offline')}</p>}
      <button type="button" className="button primary" aria-expanded={recording} onClick={() => setRecording(!recording)}>
        {t('problems.record')}
      </button>
      {recording && <RecordProblemForm box={box} user={user} onDone={() => setRecording(false)} />}
      {loading ? (
        <p className="muted" role="status">
          {t('problems.loading')}
        </p>
      ) : open.length === 0 ? (
        <p className="muted">{t('problems.noneOpen')}</p>
      ) : (
        <ul className="problem-list" aria-label={t('problems.openLabel')}>
          {open.map((problem) => (
            <ProblemItem key={problem.id} problem={problem} user={user} company={company} where={problem.sub_gridbox_id === null ? null : plantName(problem.sub_gridbox_id)} />
          ))}
        </ul>
      )}
      {closed.length > 0 && (
        <details className="problem-closed">
          <summary>{t('problems.closed', { count: closed.length })}</summary>
          <ul className="problem-list" aria-label={t('problems.closedLabel')}>
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
  const { t } = useTranslation(roomsTexts);
  const manage = useAction(manageProblem, t('problems.updated'));
  const by = userName(company, problem.user_id);
  const changedBy = userName(company, problem.status_by);
  const name = problem.problem_type;
  const status = t(`problems.statuses.${problem.status}`);
  const changedAt = when(problem.status_at);
  return (
    <li className="problem-item" aria-label={t('problems.itemLabel', { name, severity: problem.severity })}>
      <div className="problem-line">
        <strong>{name}</strong>
        <span className={`severity-badge severity-${problem.severity}`}>{t('problems.severity', { severity: problem.severity })}</span>
        <span className={`chip problem-status status-${problem.status}`}>{status}</span>
        <RecordStatus document={problem} waitingLabel={problem.photo_pending ? t('problems.waitingWithPhoto') : t('problems.waiting')} />
      </div>
      <p className="muted problem-meta">
        {[where ? t('problems.onPlace', { where }) : t('problems.onBox'), t('problems.seen', { at: when(problem.observed_at) }), by ? t('problems.by', { by }) : ''].filter(Boolean).join(' · ')}
        {problem.status_at && problem.status !== 'unresolved'
          ? ` · ${changedBy ? t('problems.statusChangedBy', { status: status.toLowerCase(), at: changedAt, by: changedBy }) : t('problems.statusChanged', { status: status.toLowerCase(), at: changedAt })}`
          : ''}
      </p>
      {problem.notes && <p className="problem-notes">{problem.notes}</p>}
      {problem.image && <img className="problem-photo" src={problem.image} alt={t('problems.photoOf', { name })} loading="lazy" />}
      <div className="problem-actions" role="group" aria-label={t('problems.actionsOn', { name })}>
        {ACTIONS_OF[problem.status].map((action) => (
          <button
            key={action}
            type="button"
            className={`button ${action === 'resolve' ? 'primary' : ''}`}
            disabled={manage.busy}
            aria-label={t('problems.actionOn', { action: t(`problems.actions.${action}`), name })}
            onClick={() => void manage.run({ problemId: problem.id, action, userId: user.userId })}
          >
            {t(`problems.actions.${action}`)}
          </button>
        ))}
      </div>
      <FormError error={manage.error} />
    </li>
  );
}

function RecordProblemForm({ box, user, onDone }: { box: BoxDoc; user: SignedInUser; onDone: () => void }) {
  const { t } = useTranslation(roomsTexts);
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
    <form className="form problem-form" aria-label={t('problems.form.label')} onSubmit={(event) => void submit(event)} noValidate>
      {plants.length > 0 && (
        <label>
          {t('problems.form.where')}
          <select value={plantId} onChange={(event) => setPlantId(event.target.value)}>
            <option value="">{t('problems.form.wholeBox')}</option>
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
        {t('problems.form.type')}
        <input name="problemType" type="search" value={type} onChange={(event) => setType(event.target.value)} autoComplete="off" placeholder={t('problems.form.typePlaceholder')} aria-describedby={`${ids}-type-hint`} />
      </label>
      <p id={`${ids}-type-hint`} className="muted problem-type-hint">
        {!type.trim()
          ? t('problems.form.typeHint')
          : catalogued
            ? t('problems.form.fromCatalogue', { name: catalogued.name, kind: t(`problems.kinds.${catalogued.kind}`) })
            : t('problems.form.notInCatalogue')}
      </p>
      {matches.length > 0 && (
        <ul className="catalogue-matches" aria-label={t('problems.form.matches')}>
          {matches.map((problem) => (
            <li key={problem.slug}>
              <button type="button" className="button" onClick={() => setType(problem.name)}>
                {problem.name}
                <span className="muted"> · {t(`problems.kinds.${problem.kind}`)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="severity-picker" role="group" aria-label={t('problems.form.severityGroup')}>
        <span className="severity-label">{t('problems.form.severity')}</span>
        {SEVERITIES.map((value) => (
          <button key={value} type="button" className="button severity-button" aria-pressed={severity === value} aria-label={t('problems.form.severityButton', { value, word: SEVERITY_WORDS[value] ? t(`problems.severityWords.${SEVERITY_WORDS[value]}`) : '' })} onClick={() => setSeverity(value)}>
            {value}
          </button>
        ))}
      </div>
      <label>
        {t('problems.form.notes')}
        <textarea name="notes" rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
      </label>
      <label className="button file-button">
        {photo ? t('problems.form.photo', { name: photo.name }) : t('problems.form.addPhoto')}
        <input type="file" accept="image/*" capture="environment" onChange={(event) => setPhoto(event.target.files?.[0] ?? null)} />
      </label>
      <FormError error={record.error} />
      <FormButtons submitLabel={t('problems.form.save')} busyLabel={t('problems.form.saving')} busy={record.busy} onCancel={onDone} />
    </form>
  );
}
