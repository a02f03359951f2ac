/**
 * A Problem field's control (issue 14: a scouting form answer that names plant problems): the problems
 * seen so far, each with its severity on large buttons (gloved hands), and a way to add another: search
 * the catalogue (it ships with the app, so this works offline) or type the company's own name, then
 * tap how bad it is. The answer is written with common/problem-answers.ts, so it reads as the server
 * reads it; each problem becomes a plant problem on the box when the form is submitted.
 *
 * Decisions: a problem is added only once its severity is chosen (an answer names none without one);
 * a name already named is not offered again; an answer not in the format (written elsewhere) is shown
 * as it is, with a way to clear it.
 */
import { useId, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { SEVERITY_MAX, SEVERITY_MIN } from '../../../common/messages/problems';
import { canNameProblem, formatProblemAnswer, type NamedProblem, parseProblemAnswer, PROBLEMS_PER_ANSWER_MAX } from '../../../common/problem-answers';
import { NO_FILTERS, searchCatalogue } from '../plant-problems/model';
import { useCatalogue } from '../plant-problems/useCatalogue';
import { formsTexts } from './texts';

const SEVERITIES = Array.from({ length: SEVERITY_MAX - SEVERITY_MIN + 1 }, (_, index) => SEVERITY_MIN + index);
/** How many catalogue matches show at once (a tablet's screen, not a page of results). */
const MATCHES_SHOWN = 6;

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export interface ProblemAnswerProps {
  fieldName: string;
  /** The search field's id: the field's name labels it. */
  controlId: string;
  value: string;
  disabled?: boolean | undefined;
  required: boolean;
  missing: boolean;
  onAnswer(value: string): void;
}

export function ProblemAnswer(props: ProblemAnswerProps) {
  const { t } = useTranslation(formsTexts);
  const { fieldName, controlId, value, disabled } = props;
  const ids = useId();
  const { catalogue, error: catalogueError } = useCatalogue();
  const [query, setQuery] = useState('');
  /** A name picked, waiting for its severity. */
  const [pending, setPending] = useState<string | null>(null);
  const named = useMemo(() => parseProblemAnswer(value), [value]);
  const chosen = useMemo(() => named ?? [], [named]);
  const write = (problems: NamedProblem[]) => props.onAnswer(formatProblemAnswer(problems));

  const typed = query.trim();
  const isChosen = (name: string) => chosen.some((problem) => sameName(problem.name, name));
  const matches = useMemo(() => {
    if (!catalogue || !typed) return [];
    const found = searchCatalogue(catalogue, { ...NO_FILTERS, query: typed });
    return found.filter((problem) => !chosen.some((each) => sameName(each.name, problem.name))).slice(0, MATCHES_SHOWN);
  }, [catalogue, typed, chosen]);
  // The typed name is offered as the company's own unless the catalogue names it (then it is a match).
  const catalogued = catalogue && typed ? catalogue.named(typed) : undefined;
  const ownOffered = typed !== '' && !catalogued && !isChosen(typed) && canNameProblem(typed);
  const full = chosen.length >= PROBLEMS_PER_ANSWER_MAX;

  function pick(name: string) {
    setPending(name);
    setQuery('');
  }

  if (named === null) {
    return (
      <div className="problem-answer">
        <p className="muted">
          <Trans t={t} i18nKey="problems.notAList" values={{ answer: value }} components={{ q: <q /> }} />
        </p>
        <button type="button" className="button" disabled={disabled} onClick={() => props.onAnswer('')}>
          {t('problems.clearAndPick')}
        </button>
        {/* The field's label names this control, so the label still points at something. */}
        <input id={controlId} type="hidden" value={value} />
      </div>
    );
  }

  return (
    <div className="problem-answer">
      {chosen.length > 0 && (
        <ul className="problem-answer-list" aria-label={t('problems.seen', { field: fieldName })}>
          {chosen.map((problem, index) => (
            <li key={problem.name} className="problem-answer-item">
              <strong>{problem.name}</strong>
              <SeverityButtons
                name={problem.name}
                value={problem.severity}
                disabled={disabled}
                onChoose={(severity) => write(chosen.map((each, at) => (at === index ? { ...each, severity } : each)))}
              />
              <button type="button" className="button danger" disabled={disabled} aria-label={t('problems.removeNamed', { problem: problem.name })} onClick={() => write(chosen.filter((_, at) => at !== index))}>
                {t('problems.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}

      {pending !== null ? (
        <div className="problem-answer-pending" role="group" aria-label={t('problems.add', { problem: pending })}>
          <p>
            <Trans t={t} i18nKey="problems.howBad" values={{ problem: pending }} components={{ strong: <strong /> }} />
          </p>
          <SeverityButtons
            name={pending}
            value={null}
            disabled={disabled}
            onChoose={(severity) => {
              write([...chosen, { name: pending.trim(), severity }]);
              setPending(null);
            }}
          />
          <button type="button" className="button" disabled={disabled} onClick={() => setPending(null)}>
            {t('problems.cancel')}
          </button>
        </div>
      ) : full ? (
        <p className="muted">{t('problems.atMost', { max: PROBLEMS_PER_ANSWER_MAX })}</p>
      ) : (
        <>
          <input
            id={controlId}
            type="search"
            className="problem-answer-search"
            value={query}
            disabled={disabled}
            autoComplete="off"
            placeholder={chosen.length ? t('problems.searchAnother') : t('problems.search')}
            aria-required={props.required || undefined}
            aria-invalid={props.missing || undefined}
            aria-describedby={`${ids}-hint`}
            onChange={(event) => setQuery(event.target.value)}
          />
          <p id={`${ids}-hint`} className="muted problem-answer-hint">
            {catalogueError ??
              (!typed
                ? t('problems.hint')
                : !catalogue
                  ? t('problems.loadingCatalogue')
                  : !canNameProblem(typed)
                    ? t('problems.noBrackets')
                    : isChosen(typed)
                      ? t('problems.alreadyNamed')
                      : null)}
          </p>
          {(matches.length > 0 || ownOffered) && (
            <ul className="problem-answer-matches" aria-label={t('problems.toAdd')}>
              {matches.map((problem) => (
                <li key={problem.slug}>
                  <button type="button" className="button" disabled={disabled} onClick={() => pick(problem.name)}>
                    {problem.name}
                    <span className="muted"> · {t(`problems.kinds.${problem.kind}`)}</span>
                  </button>
                </li>
              ))}
              {ownOffered && (
                <li>
                  <button type="button" className="button" disabled={disabled} onClick={() => pick(typed)}>
                    {t('problems.addOwn', { problem: typed })}
                  </button>
                </li>
              )}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** Severity 1–5 as a row of large buttons; the chosen one pressed. */
function SeverityButtons(props: { name: string; value: number | null; disabled?: boolean | undefined; onChoose(severity: number): void }) {
  const { t } = useTranslation(formsTexts);
  return (
    <div className="problem-answer-severity" role="group" aria-label={t('problems.severityOf', { problem: props.name })}>
      {SEVERITIES.map((severity) => (
        <button
          key={severity}
          type="button"
          className="button problem-answer-severity-button"
          aria-pressed={props.value === severity}
          aria-label={t('problems.severity', { severity, max: SEVERITY_MAX, problem: props.name })}
          disabled={props.disabled}
          onClick={() => props.onChoose(severity)}
        >
          {severity}
        </button>
      ))}
    </div>
  );
}
