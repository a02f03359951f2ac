/**
 * The command bar (issue 18; spec part 2 "AI chat"), on the dashboard and the room: a grower types a
 * command, or speaks it where the browser can listen ("cull boxes 4 and 5 in Bench A", "harvest B-001"),
 * the tablet reads it itself (common/commands/parse.ts: no outside service, offline too, in the company's
 * language), lists what it will do in words, and runs it on "Run" through the same domain functions as
 * the screens (run.ts); each line then says whether it is done, waits for the connection, or failed and
 * why. A command it cannot read gets its answer with an example of one it can.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommandLanguage } from '../../../common/commands/actions';
import { type SignedInUser, useLocalDocument } from '../../app/hooks';
import { apiContext } from '../../app/services';
import { messageOf, translateMessage } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { type CommandCompanyDoc, commandLanguageOf, readCommandPlaces, SPEECH_LANGUAGE, vocabularyOf } from './places';
import { type ActionPlan, planCommand, runnable } from './resolve';
import { type ActionOutcome, type CommandRun, runCommand } from './run';
import { commandsTexts } from './texts';
// Its styles come with the slot (CommandBarSlot.tsx), which reserves the bar's place.

export interface CommandBarProps {
  user: SignedInUser;
  /** The room on screen (its key); none on the dashboard. */
  roomId?: string | null;
  /** The grid on screen: the one a command that names no grid means. */
  gridId?: string | null;
}

/** What stops the bar before a command is read, as its text in locales/*.json `bar` (with the reason, where one). */
type BarProblem = { key: 'empty' | 'readerNotSaved' } | { key: 'storeUnreadable'; reason: string };

type Stage =
  | { kind: 'idle' }
  | { kind: 'reading' }
  | { kind: 'problem'; problem: BarProblem }
  | { kind: 'unparsed'; message: string; example: string }
  | { kind: 'confirm'; command: string; language: CommandLanguage; plans: ActionPlan[] }
  | { kind: 'running'; command: string; plans: ActionPlan[] }
  | { kind: 'ran'; command: string; plans: ActionPlan[]; run: CommandRun };

/** The parser loads with the first command read, not with the bar. */
const parser = () => import('../../../common/commands/parse');

export function CommandBar({ user, roomId = null, gridId = null }: CommandBarProps) {
  const { t } = useTranslation(commandsTexts);
  const company = useLocalDocument<CommandCompanyDoc>('company', String(user.companyId)).document;
  const language = commandLanguageOf(company);
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  // A read answered after a newer one started is dropped.
  const reads = useRef(0);
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();

  const read = useCallback(
    async (said: string) => {
      const command = said.trim();
      const round = (reads.current += 1);
      if (!command) return setStage({ kind: 'problem', problem: { key: 'empty' } });
      setStage({ kind: 'reading' });
      const next = await parser().then(
        async ({ parseCommand }): Promise<Stage> => {
          try {
            const context = await apiContext();
            const places = await readCommandPlaces(context, user.companyId);
            const parsed = parseCommand(command, places.language, vocabularyOf(places));
            return parsed.ok
              ? { kind: 'confirm', command, language: places.language, plans: await planCommand(context, parsed.actions, { roomId, gridId }, places) }
              : { kind: 'unparsed', message: parsed.message, example: parsed.example };
          } catch (error) {
            return { kind: 'problem', problem: { key: 'storeUnreadable', reason: messageOf(error) } };
          }
        },
        (): Stage => ({ kind: 'problem', problem: { key: 'readerNotSaved' } }),
      );
      if (round === reads.current) setStage(next);
    },
    [user.companyId, roomId, gridId],
  );

  const speech = useSpeech(language, (heard) => {
    setText(heard);
    void read(heard);
  });

  async function run() {
    if (stage.kind !== 'confirm') return;
    const { command, plans } = stage;
    if (!runnable(plans)) return;
    reads.current += 1;
    setStage({ kind: 'running', command, plans });
    let result: CommandRun;
    try {
      result = await runCommand(await apiContext(), { command, language: stage.language, plans, user: { userId: user.userId, companyId: user.companyId } });
    } catch (error) {
      // Each action's failure is its own line (run.ts); this is the local store not opening at all.
      return setStage({ kind: 'problem', problem: { key: 'storeUnreadable', reason: messageOf(error) } });
    }
    setStage({ kind: 'ran', command, plans, run: result });
    if (result.form) {
      const { templateId, templateName, search } = result.form;
      void navigate({ to: '/dashboard/formbuilder/submit/$templateID/$templateName', params: { templateID: templateId, templateName }, search });
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    void read(text);
  }

  function clear() {
    reads.current += 1;
    setText('');
    setStage({ kind: 'idle' });
  }

  return (
    <section className="card command-bar" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('bar.title')}</h2>
      <form className="command-form" onSubmit={submit} noValidate>
        <label htmlFor={inputId}>{t('bar.label')}</label>
        <div className="command-row">
          <input
            id={inputId}
            className="command-input"
            type="text"
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              // What was read (or is being read) no longer matches what is typed: read it again before running.
              if (stage.kind === 'reading' || stage.kind === 'confirm' || stage.kind === 'unparsed' || stage.kind === 'problem') {
                reads.current += 1;
                setStage({ kind: 'idle' });
              }
            }}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            enterKeyHint="go"
            aria-describedby={hintId}
          />
          <button type="submit" className="button primary" disabled={stage.kind === 'reading' || stage.kind === 'running'}>
            {t('bar.read')}
          </button>
          {speech.available && (
            <button type="button" className="button" aria-pressed={speech.listening} onClick={speech.listening ? speech.stop : speech.start}>
              {speech.listening ? t('bar.stopListening') : t('bar.speak')}
            </button>
          )}
        </div>
        <p id={hintId} className="muted command-hint">
          {t('bar.hint')}
        </p>
      </form>
      <div className="command-answer" aria-live="polite">
        {speech.listening && <p className="command-status">{t('bar.listening')}</p>}
        {speech.error && (
          <p className="error-text" role="alert">
            {speech.error.key === 'speechFailed' ? t('bar.speechFailed', { reason: speech.error.reason }) : t(`bar.${speech.error.key}`)}
          </p>
        )}
        <StageView stage={stage} onRun={() => void run()} onCancel={clear} />
      </div>
    </section>
  );
}

function StageView({ stage, onRun, onCancel }: { stage: Stage; onRun: () => void; onCancel: () => void }) {
  const { t } = useTranslation(commandsTexts);
  const listId = useId();
  switch (stage.kind) {
    case 'idle':
      return null;
    case 'reading':
      return <p className="command-status">{t('bar.reading')}</p>;
    case 'problem':
      return (
        <p className="error-text" role="alert">
          {stage.problem.key === 'storeUnreadable' ? t('bar.storeUnreadable', { reason: stage.problem.reason }) : t(`bar.${stage.problem.key}`)}
        </p>
      );
    case 'unparsed':
      return (
        <div className="command-unparsed" role="alert">
          {/* The parser's own answer, in the company's command language (common/commands/phrases.ts). */}
          <p>{stage.message || t('bar.notUnderstood')}</p>
          <p>{t('bar.tryExample', { example: stage.example })}</p>
        </div>
      );
    case 'confirm':
    case 'running': {
      const ready = runnable(stage.plans);
      return (
        <div className="command-confirm">
          <h3 id={listId}>{t('bar.confirmHeading')}</h3>
          <ol className="command-actions" aria-labelledby={listId}>
            {stage.plans.map((plan, index) => (
              <li key={index} className={plan.problem ? 'blocked' : undefined}>
                <span className="command-words">{plan.words}</span>
                {plan.problem && <span className="error-text">{plan.problem}</span>}
              </li>
            ))}
          </ol>
          {!ready && (
            <p className="error-text" role="alert">
              {t('bar.fixFirst')}
            </p>
          )}
          <div className="form-actions">
            <button type="button" className="button primary" disabled={!ready || stage.kind === 'running'} onClick={onRun}>
              {stage.kind === 'running' ? t('bar.running') : t('bar.run')}
            </button>
            <button type="button" className="button" disabled={stage.kind === 'running'} onClick={onCancel}>
              {t('bar.cancel')}
            </button>
          </div>
        </div>
      );
    }
    case 'ran':
      return (
        <div className="command-results">
          <h3 id={listId}>{t('bar.resultsHeading')}</h3>
          <ol className="command-actions" aria-labelledby={listId}>
            {stage.plans.map((plan, index) => (
              <li key={index}>
                <span className="command-words">{plan.words}</span>
                <OutcomeText outcome={stage.run.outcomes[index] ?? null} />
              </li>
            ))}
          </ol>
          <p className="muted">
            <SavedText outcome={stage.run.saved} />
          </p>
          <button type="button" className="button" onClick={onCancel}>
            {t('bar.newCommand')}
          </button>
        </div>
      );
  }
}

type Progress = { state: 'failed'; message: string } | { state: 'queued' | 'sending' | 'done' | 'form' };

/**
 * Where an action's changes are, as the sync status tells it: refused (with the server's message, in
 * the reader's language), waiting for the connection, on their way, or with the server.
 */
function useProgress(outcome: ActionOutcome | null): Progress {
  const { t } = useTranslation(commandsTexts);
  const refused = useSyncStatus((status) => status.failed.find((entry) => outcome?.entryIds.includes(entry.id))?.error ?? null);
  const online = useSyncStatus((status) => status.online);
  const waiting = useSyncStatus((status) => status.pending - status.failed.length > 0);
  if (!outcome) return { state: 'failed', message: t('bar.notUnderstood') };
  if (outcome.error) return { state: 'failed', message: translateMessage(outcome.error) };
  if (refused !== null) return { state: 'failed', message: translateMessage(refused) };
  if (outcome.form) return { state: 'form' };
  if (outcome.entryIds.length === 0) return { state: 'done' };
  if (!online) return { state: 'queued' };
  return waiting ? { state: 'sending' } : { state: 'done' };
}

/** Each state's words (locales/*.json `bar`). */
const PROGRESS_WORDS = { queued: 'queuedOffline', sending: 'sending', done: 'done', form: 'opensForm' } as const;

function OutcomeText({ outcome }: { outcome: ActionOutcome | null }) {
  const { t } = useTranslation(commandsTexts);
  const progress = useProgress(outcome);
  return <span className={`command-outcome ${progress.state}`}>{progress.state === 'failed' ? t('bar.failed', { message: progress.message }) : t(`bar.${PROGRESS_WORDS[progress.state]}`)}</span>;
}

function SavedText({ outcome }: { outcome: ActionOutcome }) {
  const { t } = useTranslation(commandsTexts);
  const progress = useProgress(outcome);
  if (progress.state === 'failed') return <span className="error-text">{t('bar.commandNotSaved', { message: progress.message })}</span>;
  return <>{progress.state === 'queued' ? t('bar.commandQueued') : t('bar.commandSaved')}</>;
}

// ——— Listening ———

/** The Web Speech API's recogniser, as far as the bar uses it (not in TypeScript's DOM types). */
interface Recognition {
  lang: string;
  interimResults: boolean;
  maxAlternatives: number;
  continuous: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | null {
  const speech = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return speech.SpeechRecognition ?? speech.webkitSpeechRecognition ?? null;
}

/** What stopped listening, as its text in locales/*.json `bar`: a known error, or another with its code. */
type SpeechError = { key: 'speechRefused' | 'speechOffline' | 'speechNothingHeard' } | { key: 'speechFailed'; reason: string };

const SPEECH_ERRORS: Record<string, SpeechError> = {
  'not-allowed': { key: 'speechRefused' },
  'service-not-allowed': { key: 'speechRefused' },
  'audio-capture': { key: 'speechRefused' },
  network: { key: 'speechOffline' },
  'no-speech': { key: 'speechNothingHeard' },
};

/**
 * Listening in the company's language (en-US, es-ES, nl-NL), where the browser can; `available` is
 * false elsewhere and the Speak button is not shown. Some browsers listen through a service of their
 * maker's: offline they fail with `network`, and the bar says to type instead.
 */
function useSpeech(language: CommandLanguage, onHeard: (text: string) => void) {
  const [Recognition] = useState(recognitionConstructor);
  const [listening, setListening] = useState(false);
  const [error, setError] = useState<SpeechError | null>(null);
  const current = useRef<Recognition | null>(null);
  const heard = useRef(onHeard);
  useEffect(() => {
    heard.current = onHeard;
  }, [onHeard]);
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(() => {
    if (!Recognition) return;
    current.current?.abort();
    const recognition = new Recognition();
    recognition.lang = SPEECH_LANGUAGE[language];
    recognition.interimResults = false;
    recognition.continuous = false;
    recognition.maxAlternatives = 1;
    recognition.onresult = (event) => {
      const transcript = Array.from(event.results, (result) => result[0]?.transcript ?? '')
        .join(' ')
        .trim();
      if (transcript) heard.current(transcript);
    };
    recognition.onerror = (event) => setError(SPEECH_ERRORS[event.error] ?? { key: 'speechFailed', reason: event.error });
    recognition.onend = () => {
      if (current.current === recognition) current.current = null;
      setListening(false);
    };
    setError(null);
    try {
      recognition.start();
      current.current = recognition;
      setListening(true);
    } catch (caught) {
      setError({ key: 'speechFailed', reason: messageOf(caught) });
    }
  }, [Recognition, language]);
  const stop = useCallback(() => current.current?.stop(), []);
  return { available: Recognition !== null, listening, error, start, stop };
}
