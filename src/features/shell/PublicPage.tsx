/**
 * The frame of the public pages (sign in, sign up, password reset): one narrow column with its title,
 * and a form that sends once, says when it is busy and shows the server's message when it fails.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { FormError } from './forms';
import { messageOf } from '../../i18n/messages';

export function PublicPage(props: { title: string; className?: string; footer: ReactNode; children: ReactNode }) {
  return (
    <main className={props.className ? `page narrow ${props.className}` : 'page narrow'}>
      <h1>{props.title}</h1>
      {props.children}
      <p>{props.footer}</p>
    </main>
  );
}

/**
 * One public form's sending: `send` gets the form's fields; what it throws becomes the error shown.
 * WARNING: `busy` stays true while `send` awaits, including a navigation at its end.
 */
export function useFormSubmit(send: (form: FormData) => Promise<unknown>) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await send(form);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  }
  return { error, busy, submit, clearError: () => setError(null) };
}

/**
 * A public page's form: the fields, the error, one submit button (`busyLabel` while sending). The
 * error clears as soon as the grower types again; `browserChecks` leaves the fields' own checks
 * (`required`, `type="email"`) to the browser and keeps the error until the next try.
 */
export function PublicForm(props: { sending: ReturnType<typeof useFormSubmit>; submitLabel: string; busyLabel: string; browserChecks?: boolean; children: ReactNode }) {
  const { sending } = props;
  return (
    <form className="form" onSubmit={(event) => void sending.submit(event)} onChange={props.browserChecks ? undefined : sending.clearError} noValidate={!props.browserChecks}>
      {props.children}
      <FormError error={sending.error} />
      <button className="button primary" type="submit" disabled={sending.busy}>
        {sending.busy ? props.busyLabel : props.submitLabel}
      </button>
    </form>
  );
}
