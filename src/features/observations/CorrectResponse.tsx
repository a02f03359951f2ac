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
import { mayCorrect } from '../../../common/form-corrections';
import { FORM_RESPONSES_WINDOW_DAYS } from '../../../common/messages/forms';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { CORRECTION_REASON_MAX } from '../../../common/schemas/form-responses';
import type { FormCorrection, FormResponse } from '../../api/form-responses';
import { reachedServer } from '../../api/records';
import { deferred } from '../../app/deferred';
import { type SignedInUser, useAction, useLocalDocument } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { FormFields } from '../forms/FormFields';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { FormButtons, FormError } from '../shell/forms';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { changedAny, correctionForm, currentAnswers, FIXED_TYPES, newestCorrectionsFirst, originalsOf } from './correction-model';
import './corrections.css';

const correctFormResponse = deferred(() => import('../../api/form-corrections'), 'correctFormResponse');

type ResponseDoc = LocalDocument & FormResponse;
type TemplateDoc = LocalDocument & FormTemplateRecord;

const TITLE = 'Correct a response';
const shown = (value: string | null | undefined) => (value?.trim() ? value : 'blank');

export function CorrectResponseScreen({ responseId }: { responseId: string | null }) {
  return <SignedIn title={TITLE}>{(user) => <CorrectResponse user={user} responseId={responseId} />}</SignedIn>;
}

function CorrectResponse({ user, responseId }: { user: SignedInUser; responseId: string | null }) {
  const { document: response, loading } = useLocalDocument<ResponseDoc>('form_responses', responseId ?? undefined);
  const form = useLocalDocument<TemplateDoc>('form_templates', response ? String(response.TemplateID) : undefined);
  const company = useLocalDocument<CompanyDoc>('company', String(user.companyId)).document;
  const pulling = useInitialPull();
  const back = (
    <Link to="/dashboard/observations" className="button">
      Back to observations
    </Link>
  );
  if (pulling && !response) {
    return (
      <Screen title={TITLE} actions={back}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }
  const missing = !responseId
    ? 'No response chosen: open Observations and tap “Correct” under the response to correct.'
    : `This response is not on this tablet: it was deleted, or it is older than the ${FORM_RESPONSES_WINDOW_DAYS} days a tablet keeps. Responses are corrected from the tablet’s copy.`;
  return (
    <Screen title={TITLE} actions={back} loading={loading || (response !== null && form.loading)} empty={!loading && !response ? missing : null}>
      {response && <Correction key={response.id} user={user} response={response} form={form.document} company={company} />}
    </Screen>
  );
}

function Correction({ user, response, form, company }: { user: SignedInUser; response: ResponseDoc; form: FormTemplateRecord | null; company: CompanyDoc | null }) {
  const who = userName(company, response.SubmittedBy) ?? 'a user not on this tablet';
  const allowed = mayCorrect({ userId: user.userId, role: user.role ?? 'Regular' }, response.SubmittedBy);
  const corrections = response.corrections ?? [];
  return (
    <div className="correction">
      <div className="card correction-head">
        <h2>{response.TemplateName}</h2>
        <p className="muted">
          Submitted {when(response.SubmittedAt)} by {who}
          {!reachedServer(response) && (
            <>
              {' '}
              <span className="chip waiting">Waiting to sync</span>
            </>
          )}
        </p>
      </div>
      {allowed ? (
        <CorrectionForm response={response} form={form} />
      ) : (
        <p className="banner" role="status">
          Only the person who submitted this response, or an Admin, can correct it. Its answers and corrections are below.
        </p>
      )}
      <FixedAnswers response={response} />
      <Originals response={response} />
      <section className="card correction-history" aria-labelledby="correction-history">
        <h2 id="correction-history">Corrections</h2>
        {corrections.length === 0 ? (
          <p className="muted">Not corrected yet: the answers are as submitted.</p>
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

  if (editable.fields.length === 0) return <p className="empty">This response has no answers that can be corrected here.</p>;
  const changed = changedAny(answers, before);
  return (
    <form className="card correct-form" onSubmit={(event) => void submit(event)} aria-labelledby={`${ids}-title`} noValidate>
      <h2 id={`${ids}-title`}>Answers now</h2>
      <p className="muted">Change what was wrong, say why, and save. The values as submitted are kept and shown below.</p>
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
          Reason for the correction
        </label>
        <textarea id={`${ids}-reason`} rows={3} maxLength={CORRECTION_REASON_MAX} value={reason} aria-required="true" disabled={save.busy} onChange={(event) => setReason(event.target.value)} />
      </div>
      <FormError error={save.error} />
      {saved && (
        <p className="correction-saved" role="status">
          Correction saved. It is on this tablet now and reaches the server with the next sync.
        </p>
      )}
      <FormButtons submitLabel="Save correction" busy={save.busy} busyLabel="Saving…" />
      {!changed && !saved && <p className="muted">Nothing changed yet.</p>}
    </form>
  );
}

/** Photos and problems: shown as answered, not corrected here. */
function FixedAnswers({ response }: { response: FormResponse }) {
  const fixed = response.fieldResponses.filter((answer) => FIXED_TYPES.includes(answer.FieldType));
  if (fixed.length === 0) return null;
  return (
    <section className="card" aria-labelledby="fixed-answers">
      <h2 id="fixed-answers">Not corrected here</h2>
      <dl className="answers">
        {fixed.map((answer) => (
          <div key={String(answer.FieldID)}>
            <dt>{answer.FieldName}</dt>
            <dd>
              {shown(answer.InputData)}{' '}
              <span className="muted">{answer.FieldType === 'Image' ? '(a photo: add another to the response instead)' : '(problems are corrected on their box)'}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The values as submitted of every corrected field, beside what they are now. */
function Originals({ response }: { response: FormResponse }) {
  const originals = originalsOf(response);
  if (originals.length === 0) return null;
  return (
    <section className="card correction-originals" aria-labelledby="correction-originals">
      <h2 id="correction-originals">As submitted</h2>
      <dl className="answers">
        {originals.map((each) => (
          <div key={each.fieldId}>
            <dt>{each.name}</dt>
            <dd>
              {shown(each.original)} <span className="muted">(now {shown(each.now)})</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function CorrectionItem({ correction, company }: { correction: FormCorrection; company: CompanyDoc | null }) {
  const who = userName(company, correction.CorrectedBy) ?? 'a user not on this tablet';
  return (
    <li className="correction-item">
      <p className="correction-when">
        {when(correction.CorrectedAt)} · {who}
        {correction.CorrectionID === null && (
          <>
            {' '}
            <span className="chip waiting">Waiting to sync</span>
          </>
        )}
      </p>
      <ul className="correction-values">
        {correction.values.map((value) => (
          <li key={String(value.FieldID)}>
            <strong>{value.FieldName}</strong>: from {shown(value.PreviousValue)} to {shown(value.CorrectedValue)}
          </li>
        ))}
      </ul>
      <p className="correction-reason-text">Reason: {correction.Reason}</p>
    </li>
  );
}
