/**
 * One plant problem (issue 14, screen `plantsProblems/{problemID}`, by the catalogue's id or slug): its
 * description, symptoms by group, colour symptoms, look-alikes with how to tell them apart, and solutions
 * by kind, all from the catalogue in the app (offline too); the company's own solutions, from the
 * company's local document, added offline too (useCustomSolutions); where it is open now in the
 * company's rooms, from the local `plant_problems` collection; and the company's colour and
 * abbreviation for it on the pest-pressure map, from the company's document, which Admins set here.
 *
 * Where the spec is silent:
 * - A colour mapping names the problem by its catalogue name, the type a problem recorded from the
 *   catalogue carries (problemCircleStyle matches mappings to recorded types without case).
 * - "Where it is now" counts open problems (unresolved and treated) per room, most first; each room
 *   links to its pest-pressure map.
 * - Chemical solutions always carry a caution to check the label: what is allowed differs by crop and country.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { problemCircleStyle, problemMessages as m, DEFAULT_PROBLEM_COLOR, ABBREVIATION_MAX } from '../../../common/messages/problems';
import type { CatalogueProblem, Solution, SolutionKind } from '../../../common/plant-problems';
import type { ProblemColorMappingRecord } from '../../../common/schemas/problems';
import { addCustomSolution, deleteProblemColorMapping, mapProblemColor } from '../../api/problems';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { formatDate } from '../../i18n/format';
import { translateMessage } from '../../i18n/messages';
import { useCompany } from '../company/useCompany';
import type { RoomDoc } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { FormButtons, FormError, Field } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { ColorSwatches } from './ColorSwatches';
import { useCustomSolutions } from './hooks';
import { kindName, openProblemsByRoom, type RecordedProblem, symptomsByGroup } from './model';
import { type LoadedCatalogue, useCatalogue } from './useCatalogue';
import './plant-problems.css';
import { useCatalogueWords } from './catalogue-texts';
import { plantProblemsTexts } from './texts';

type RecordedDoc = LocalDocument & RecordedProblem;

/** The catalogue's kinds of solution, in the page's order (each titled by plantProblemsTexts `problem.solutionKinds`). */
const SOLUTION_KINDS: readonly SolutionKind[] = ['cultural', 'biological', 'chemical'];

export function PlantProblemScreen({ problemId }: { problemId: string }) {
  const { t } = useTranslation(plantProblemsTexts);
  return <SignedIn title={t('problem.title')}>{(user) => <ProblemPage problemId={problemId} user={user} />}</SignedIn>;
}

function ProblemPage({ problemId, user }: { problemId: string; user: SignedInUser }) {
  const { t } = useTranslation(plantProblemsTexts);
  const words = useCatalogueWords();
  const { catalogue, error } = useCatalogue();
  const problem = catalogue?.problem(problemId);
  const back = (
    <Link to="/dashboard/plantsProblems" className="button">
      {t('problem.all')}
    </Link>
  );
  if (!catalogue || !problem) {
    return <Screen title={t('problem.title')} actions={back} loading={!catalogue && !error} error={error} empty={catalogue ? t('problem.notFound', { id: problemId }) : null} />;
  }
  // Keyed by the problem: following a look-alike starts its page afresh (its forms closed and empty).
  return (
    <Screen title={words.name(problem)} actions={back}>
      <ProblemContent key={problem.slug} catalogue={catalogue} problem={problem} user={user} />
    </Screen>
  );
}

function ProblemContent({ catalogue, problem, user }: { catalogue: LoadedCatalogue; problem: CatalogueProblem; user: SignedInUser }) {
  const { t } = useTranslation(plantProblemsTexts);
  const words = useCatalogueWords();
  const colorOf = useMemo(() => new Map(catalogue.colorSymptoms.map((color) => [color.slug, color])), [catalogue]);
  const groups = useMemo(() => symptomsByGroup(catalogue, problem), [catalogue, problem]);
  return (
    <div className="problem-page">
      <p className="problem-meta">
        {problem.scientific_name && <span className="scientific">{problem.scientific_name}</span>}
        <span className="chip kind-chip">{kindName(problem.kind)}</span>
        <span>{words.category(problem)}</span>
      </p>
      <p className="problem-description">{words.description(problem)}</p>

      <WhereItIsNow catalogue={catalogue} problem={problem} user={user} />
      <MapColour problem={problem} user={user} />

      <section className="problem-section" aria-labelledby="symptoms-heading">
        <h2 id="symptoms-heading">{t('problem.symptoms')}</h2>
        <div className="symptom-groups">
          {groups.map(({ group, symptoms }) => (
            <div key={group.slug} className="card">
              <h3>{words.group(group)}</h3>
              {symptoms.length === 0 ? (
                <p className="muted">{t('problem.showsHere')}</p>
              ) : (
                <ul>
                  {symptoms.map((symptom) => (
                    <li key={symptom.slug}>{words.symptom(symptom)}</li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </div>
        {problem.color_symptoms.length > 0 && (
          <>
            <h3>{t('colourSymptoms')}</h3>
            <ColorSwatches slugs={problem.color_symptoms} colors={colorOf} />
          </>
        )}
      </section>

      {problem.look_alikes.length > 0 && (
        <section className="problem-section" aria-labelledby="look-alikes-heading">
          <h2 id="look-alikes-heading">{t('problem.lookAlikes')}</h2>
          <ul className="look-alikes">
            {problem.look_alikes.map((lookAlike) => {
              const other = catalogue.problem(lookAlike.slug);
              return (
                <li key={lookAlike.slug} className="card">
                  <h3>
                    <Link to="/dashboard/plantsProblems/$problemID" params={{ problemID: lookAlike.slug }} className="problem-link">
                      {other ? words.name(other) : lookAlike.slug}
                    </Link>
                  </h3>
                  <p>{words.howToTell(problem, lookAlike)}</p>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className="problem-section" aria-labelledby="solutions-heading">
        <h2 id="solutions-heading">{t('problem.solutions')}</h2>
        {SOLUTION_KINDS.map((kind) => {
          const solutions = problem.solutions.filter((solution) => solution.kind === kind);
          return solutions.length === 0 ? null : (
            <div key={kind} className={`card solution solution-${kind}`} role="group" aria-label={t(`problem.solutionKinds.${kind}.label`)}>
              <h3>{t(`problem.solutionKinds.${kind}.title`)}</h3>
              {solutions.map((solution, index) => (
                <SolutionText key={index} solution={solution} text={words.solution(problem, problem.solutions.indexOf(solution))} />
              ))}
            </div>
          );
        })}
      </section>

      <CompanySolutions problem={problem} user={user} />
    </div>
  );
}

function SolutionText({ solution, text }: { solution: Solution; text: string }) {
  const { t } = useTranslation(plantProblemsTexts);
  return (
    <>
      <p>{text}</p>
      {solution.organisms && solution.organisms.length > 0 && (
        <>
          <p className="organisms-title">{t('problem.organisms')}</p>
          <ul className="organisms">
            {solution.organisms.map((organism) => (
              <li key={organism} className="scientific">
                {organism}
              </li>
            ))}
          </ul>
        </>
      )}
      {solution.kind === 'chemical' && (
        <p className="caution" role="note">
          {t('problem.caution')}
        </p>
      )}
    </>
  );
}

/** The company's rooms where this problem is open now, from the local store (offline too). */
function WhereItIsNow({ catalogue, problem, user }: { catalogue: LoadedCatalogue; problem: CatalogueProblem; user: SignedInUser }) {
  const { t } = useTranslation(plantProblemsTexts);
  const words = useCatalogueWords();
  const { companyId } = user;
  const recorded = useLocalQuery<RecordedDoc>('plant_problems', { company_id: companyId, status: { $in: ['unresolved', 'treated'] } }, `open-problems-${companyId}`);
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: companyId }, `rooms-${companyId}`);
  const byRoom = useMemo(() => openProblemsByRoom(recorded.documents, problem.slug, catalogue.named), [recorded.documents, problem.slug, catalogue]);
  const roomName = useMemo(() => new Map(rooms.documents.map((room) => [room.id, room.Name || t('where.unnamedRoom')])), [rooms.documents, t]);

  return (
    <section className="problem-section" aria-labelledby="where-heading">
      <h2 id="where-heading">{t('where.heading')}</h2>
      {recorded.loading || rooms.loading ? (
        <p className="muted">{t('where.looking')}</p>
      ) : byRoom.length === 0 ? (
        <p className="empty">{t('where.none', { problem: words.name(problem).toLowerCase() })}</p>
      ) : (
        <ul className="where-list" aria-label={t('where.label')}>
          {byRoom.map(({ roomId, count }) => {
            const name = roomName.get(roomId) ?? t('where.roomNotHere');
            return (
              <li key={roomId}>
                <Link to="/dashboard/rooms/unresolvedRoom/$roomID" params={{ roomID: roomId }} className="button where-room">
                  <span>{name}</span>
                  <span className="where-count">
                    {t('where.open', { count })}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A colour an <input type="color"> can show: #rrggbb (a mapping may hold #rgb or a colour name). */
function pickerColor(color: string): string {
  if (/^#[0-9a-f]{6}$/i.test(color)) return color.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(color)) return `#${[...color.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
  return DEFAULT_PROBLEM_COLOR;
}

/** The company's colour and abbreviation for this problem on the pest-pressure map; Admins set or remove it. */
function MapColour({ problem, user }: { problem: CatalogueProblem; user: SignedInUser }) {
  const { t } = useTranslation(plantProblemsTexts);
  const { document: company } = useCompany(user.companyId);
  const mappings: ProblemColorMappingRecord[] = company?.problem_color_mappings ?? [];
  const mapping = mappings.find((candidate) => candidate.Problem.trim().toLowerCase() === problem.name.toLowerCase());
  const style = problemCircleStyle(problem.name, problem.slug, mappings);
  const [editing, setEditing] = useState(false);
  const remove = useAction(deleteProblemColorMapping, m.colorMappingDeleted);

  return (
    <section className="problem-section" aria-labelledby="colour-heading">
      <h2 id="colour-heading">{t('mapColour.heading')}</h2>
      <div className="map-colour">
        <span className="map-circle" style={{ background: style.color }} aria-hidden="true">
          {style.abbreviation}
        </span>
        <p>
          {t(mapping ? 'mapColour.company' : 'mapColour.default', { color: style.color })} <strong>{style.abbreviation}</strong>
        </p>
      </div>
      {user.isAdmin &&
        (editing ? (
          <ColourForm problem={problem} user={user} color={pickerColor(style.color)} abbreviation={style.abbreviation} onDone={() => setEditing(false)} />
        ) : (
          <div className="form-actions">
            <button type="button" className="button" onClick={() => setEditing(true)}>
              {t('mapColour.set')}
            </button>
            {mapping && (
              <button type="button" className="button danger" disabled={remove.busy} onClick={() => void remove.run({ companyId: user.companyId, problem: mapping.Problem })}>
                {t('mapColour.remove')}
              </button>
            )}
          </div>
        ))}
      <FormError error={remove.error} />
    </section>
  );
}

function ColourForm(props: { problem: CatalogueProblem; user: SignedInUser; color: string; abbreviation: string; onDone: () => void }) {
  const { t } = useTranslation(plantProblemsTexts);
  const words = useCatalogueWords();
  const [color, setColor] = useState(props.color);
  const [abbreviation, setAbbreviation] = useState(props.abbreviation);
  const save = useAction(mapProblemColor, m.colorMapped, { inlineErrors: true });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await save.run({ companyId: props.user.companyId, problem: props.problem.name, color, abbreviation })) props.onDone();
  }

  return (
    <form className="form card colour-form" aria-label={t('mapColour.formLabel', { problem: words.name(props.problem) })} onSubmit={(event) => void submit(event)} noValidate>
      <div className="form-columns">
        <Field label={t('mapColour.colour')}>
          <input type="color" value={color} onChange={(event) => setColor(event.target.value)} />
        </Field>
        <Field label={t('mapColour.abbreviation')}>
          <input value={abbreviation} maxLength={ABBREVIATION_MAX} onChange={(event) => setAbbreviation(event.target.value)} autoComplete="off" />
        </Field>
      </div>
      <FormError error={save.error} />
      <FormButtons submitLabel={t('mapColour.save')} busy={save.busy} busyLabel={t('mapColour.saving')} onCancel={props.onDone} />
    </form>
  );
}

/**
 * The company's own solutions, from the company's local document (offline too), and the form to add
 * one (any member): it shows at once, "Waiting to sync" until the server has it.
 */
function CompanySolutions({ problem, user }: { problem: CatalogueProblem; user: SignedInUser }) {
  const { t } = useTranslation(plantProblemsTexts);
  const custom = useCustomSolutions(user.companyId, problem.slug);
  const [text, setText] = useState('');
  const add = useAction(addCustomSolution, m.solutionAdded, { inlineErrors: true });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (await add.run({ companyId: user.companyId, problemId: problem.slug, solution: text })) setText('');
  }

  return (
    <section className="problem-section" aria-labelledby="company-solutions-heading">
      <h2 id="company-solutions-heading">{t('companySolutions.heading')}</h2>
      {custom.loading ? (
        <p className="muted">{t('companySolutions.loading')}</p>
      ) : custom.solutions.length === 0 ? (
        <p className="empty">{t('companySolutions.none')}</p>
      ) : (
        <ul className="custom-solutions" aria-label={t('companySolutions.heading')}>
          {custom.solutions.map((solution) => (
            <li key={solution.client_id} className="card">
              <p>{solution.solution}</p>
              <p className="muted">
                {t('companySolutions.added', { date: formatDate(solution.created_at, { year: 'numeric', month: 'numeric', day: 'numeric' }) })}{' '}
                {solution.refused ? (
                  <span className="chip refused" title={translateMessage(solution.refused)}>
                    {t('companySolutions.notAccepted', { reason: translateMessage(solution.refused) })}
                  </span>
                ) : (
                  solution.waiting && <span className="chip waiting">{t('companySolutions.waiting')}</span>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form className="form card" aria-label={t('companySolutions.add')} onSubmit={(event) => void submit(event)} noValidate>
        <h3>{t('companySolutions.add')}</h3>
        <Field label={t('companySolutions.solution')}>
          <textarea rows={3} value={text} onChange={(event) => setText(event.target.value)} />
        </Field>
        <FormError error={add.error} />
        <FormButtons submitLabel={t('companySolutions.submit')} busy={add.busy} busyLabel={t('companySolutions.adding')} />
      </form>
    </section>
  );
}
