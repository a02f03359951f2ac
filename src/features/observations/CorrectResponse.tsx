/**
 * Correcting a submitted form response (issue 18, rooms/FormEdit): a typo, a wrong count. Read from
 * the tablet's copy of the response, so it works offline; the correction is queued and the response
 * shows it at once (src/api/form-corrections.ts), marked "Waiting to sync" until the server has it.
 *
 * The screen shows the response's answers as they are now, in the form's own controls (FormFields),
 * asks why (required), and keeps what they were in sight: the values as submitted of every corrected
 * field, and every correction (who, when, from what to what, why), newest first.
 *
 * Where the issue is silent:
 * - Photos and Problem answers are listed, not editable (common/form-corrections.ts says why).
 * - Who may correct follows the server (the author, or an Admin): anyone else reads the history and is
 *   told who can correct.
 * - A response not on this tablet (older than it keeps, or deleted) says so; corrections are made from
 *   the tablet's copy.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { mayCorrect } from '../../../common/form-corrections';
import { FORM_RESPONSES_WINDOW_DAYS } from '../../../common/messages/forms';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { CORRECTION_REASON_MAX } from '../../../common/schemas/form-responses';
import type { FormCorrection, FormResponse } from '../../api/form-responses';
import { reachedServer } from '../../api/records';
import { deferred } from '../../app/deferred';
import { type SignedInUser, useAction, useLocalDocument } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { i18next } from '../../i18n/i18n';
import { FormFields } from '../forms/FormFields';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { FormButtons, FormError } from '../shell/forms';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { changedAny, correctionForm, currentAnswers, FIXED_TYPES, newestCorrectionsFirst, originalsOf } from './correction-model';
import './corrections.css';
import { observationsTexts } from './texts';

const correctFormResponse = deferred(() => import('../../api/form-corrections'), 'correctFormResponse');

type ResponseDoc = LocalDocument & FormResponse;
type TemplateDoc = LocalDocument & FormTemplateRecord;

/** An answer as the history shows it: "blank" when there was none (called at render). */
const shown = (value: string | null | undefined) => (value?.trim() ? value : i18next.t('correction.blank', { ns: observationsTexts }));

export function CorrectResponseScreen({ responseId }: { responseId: string | null }) {
  const { t } = useTranslation(observationsTexts);
  return <SignedIn title={t('correction.title')}>{(user) => <CorrectResponse user={user} responseId={responseId} />}</SignedIn>;
}

function CorrectResponse({ user, responseId }: { user: SignedInUser; responseId: string | null }) {
  const { t } = useTranslation(observationsTexts);
  const title = t('correction.title');
  const { document: response, loading } = useLocalDocument<ResponseDoc>('form_responses', responseId ?? undefined);
  const form = useLocalDocument<TemplateDoc>('form_templates', response ? String(response.TemplateID) : undefined);
  const company = useLocalDocument<CompanyDoc>('company', String(user.companyId)).document;
  const pulling = useInitialPull();
  const back = (
    <Link to="/dashboard/observations" className="button">
      {t('correction.back')}
    </Link>
  );
  if (pulling && !response) {
    return (
      <Screen title={title} actions={back}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }
  const missing = !responseId
    ? t('correction.noneChosen')
    : t('correction.notOnTablet', { days: FORM_RESPONSES_WINDOW_DAYS });
  return (
    <Screen title={title} actions={back} loading={loading || (response !== null && form.loading)} empty={!loading && !response ? missing : null}>
      {response && <Correction key={response.id} user={user} response={response} form={form.document} company={company} />}
    </Screen>
  );
}

function Correction({ user, response, form, company }: { user: SignedInUser; response: ResponseDoc; form: FormTemplateRecord | null; company: CompanyDoc | null }) {
  const { t } = useTranslation(observationsTexts);
  const who = userName(company, response.SubmittedBy) ?? t('correction.unknownUser');
  const allowed = mayCorrect({ userId: user.userId, role: user.role ?? 'Regular' }, response.SubmittedBy);
  const corrections = response.corrections ?? [];
  return (
    <div className="correction">
      <div className="card correction-head">
        <h2>{response.TemplateName}</h2>
        <p className="muted">
          {t('correction.submitted', { when: when(response.SubmittedAt), who })}
          {!reachedServer(response) && (
            <>
              {' '}
              <span className="chip waiting">{t('correction.waiting')}</span>
            </>
          )}
        </p>
      </div>
      {allowed ? (
        <CorrectionForm response={response} form={form} />
      ) : (
        <p className="banner" role="status">
          {t('correction.notAllowed')}
        </p>
      )}
      <FixedAnswers response={response} />
      <Originals response={response} />
      <section className="card correction-history" aria-labelledby="correction-history">
        <h2 id="correction-history">{t('correction.history')}</h2>
        {corrections.length === 0 ? (
          <p className="muted">{t('correction.notCorrected')}</p>
        ) : (
          <ol className="corrections">
            {newestCorrectionsFirst(corrections).map((correction, index) => (
              <CorrectionItem key={`${String(correction.CorrectionID ?? 'waiting')}-${index}`} correction={correction} company={company} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function CorrectionForm({ response, form }: { response: ResponseDoc; form: FormTemplateRecord | null }) {
  const { t } = useTranslation(observationsTexts);
  const ids = useId();
  const editable = useMemo(() => correctionForm(response, form), [response, form]);
  // What the grower started from: the answers as they were when the screen opened (or last saved).
  const [before, setBefore] = useState(() => currentAnswers(editable, response));
  const [answers, setAnswers] = useState(before);
  const [reason, setReason] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useAction(
    (context, input: Parameters<typeof correctFormResponse>[1]) => correctFormResponse(context, input),
    undefined,
    { inlineErrors: true },
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const ok = await save.run({
      responseId: response.id,
      answers: editable.fields.map((field) => ({ fieldId: field.FieldID, inputData: answers[String(field.FieldID)] ?? null })),
      reason,
    });
    if (ok) {
      setBefore(answers);
      setReason('');
      setSaved(true);
    }
  }

  if (editable.fields.length === 0) return <p className="empty">{t('correction.nothingToCorrect')}</p>;
  const changed = changedAny(answers, before);
  return (
    <form className="card correct-form" onSubmit={(event) => void submit(event)} aria-labelledby={`${ids}-title`} noValidate>
      <h2 id={`${ids}-title`}>{t('correction.answersNow')}</h2>
      <p className="muted">{t('correction.help')}</p>
      <FormFields
        template={editable}
        answers={answers}
        photos={{}}
        onAnswer={(fieldId, value) => {
          setSaved(false);
          setAnswers((current) => ({ ...current, [fieldId]: value }));
        }}
        onPhoto={() => undefined}
        disabled={save.busy}
      />
      <div className="form-field correction-reason">
        <label htmlFor={`${ids}-reason`} className="field-name">
          {t('correction.reason')}
        </label>
        <textarea id={`${ids}-reason`} rows={3} maxLength={CORRECTION_REASON_MAX} value={reason} aria-required="true" disabled={save.busy} onChange={(event) => setReason(event.target.value)} />
      </div>
      <FormError error={save.error} />
      {saved && (
        <p className="correction-saved" role="status">
          {t('correction.saved')}
        </p>
      )}
      <FormButtons submitLabel={t('correction.save')} busy={save.busy} busyLabel={t('correction.saving')} />
      {!changed && !saved && <p className="muted">{t('correction.nothingChanged')}</p>}
    </form>
  );
}

/** Photos and problems: shown as answered, not corrected here. */
function FixedAnswers({ response }: { response: FormResponse }) {
  const { t } = useTranslation(observationsTexts);
  const fixed = response.fieldResponses.filter((answer) => FIXED_TYPES.includes(answer.FieldType));
  if (fixed.length === 0) return null;
  return (
    <section className="card" aria-labelledby="fixed-answers">
      <h2 id="fixed-answers">{t('correction.fixed')}</h2>
      <dl className="answers">
        {fixed.map((answer) => (
          <div key={String(answer.FieldID)}>
            <dt>{answer.FieldName}</dt>
            <dd>
              {shown(answer.InputData)}{' '}
              <span className="muted">{answer.FieldType === 'Image' ? t('correction.fixedPhoto') : t('correction.fixedProblems')}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The values as submitted of every corrected field, beside what they are now. */
function Originals({ response }: { response: FormResponse }) {
  const { t } = useTranslation(observationsTexts);
  const originals = originalsOf(response);
  if (originals.length === 0) return null;
  return (
    <section className="card correction-originals" aria-labelledby="correction-originals">
      <h2 id="correction-originals">{t('correction.asSubmitted')}</h2>
      <dl className="answers">
        {originals.map((each) => (
          <div key={each.fieldId}>
            <dt>{each.name}</dt>
            <dd>
              {shown(each.original)} <span className="muted">{t('correction.now', { value: shown(each.now) })}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function CorrectionItem({ correction, company }: { correction: FormCorrection; company: CompanyDoc | null }) {
  const { t } = useTranslation(observationsTexts);
  const who = userName(company, correction.CorrectedBy) ?? t('correction.unknownUser');
  return (
    <li className="correction-item">
      <p className="correction-when">
        {when(correction.CorrectedAt)} · {who}
        {correction.CorrectionID === null && (
          <>
            {' '}
            <span className="chip waiting">{t('correction.waiting')}</span>
          </>
        )}
      </p>
      <ul className="correction-values">
        {correction.values.map((value) => (
          <li key={String(value.FieldID)}>
            <Trans t={t} i18nKey="correction.change" values={{ field: value.FieldName, from: shown(value.PreviousValue), to: shown(value.CorrectedValue) }} components={{ strong: <strong /> }} />
          </li>
        ))}
      </ul>
      <p className="correction-reason-text">{t('correction.reasonOf', { reason: correction.Reason })}</p>
    </li>
  );
}
