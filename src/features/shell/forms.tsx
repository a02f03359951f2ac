/**
 * The small pieces every screen's forms and cards share: a labelled field, the error under a form, the
 * submit/cancel row, and the question asked in place before something that cannot be undone. The
 * markup (classes, roles, accessible names) is the one the screens wrote by hand, so the e2e tests and
 * the grower see the same page.
 */
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { appTexts } from '../../app/texts';
import { translateMessage } from '../../i18n/messages';

/** A field with its visible label (the label wraps the control, so it is the control's accessible name). */
export function Field({ label, className, children }: { label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <label className={className}>
      {label}
      {children}
    </label>
  );
}

/**
 * A select with its visible label beside it, tied by id: a label wrapping a select would put the
 * chosen option's text into the select's name ("ScanDisease scan"), so its name would not be its label.
 */
export function SelectField({ label, className, children }: { label: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={className ? `select-field ${className}` : 'select-field'}>
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/** The options of a select of fixed choices, each shown by its label. */
export function ChoiceOptions<Choice extends string>({ choices, labels }: { choices: readonly Choice[]; labels: Record<Choice, string> }) {
  return choices.map((choice) => (
    <option key={choice} value={choice}>
      {labels[choice]}
    </option>
  ));
}

/** An action's error, read out at once (`role="alert"`); nothing when there is none. `banner` frames it as a banner. */
export function FormError({ error, banner = false }: { error: string | null | undefined; banner?: boolean }) {
  return error ? (
    <p className={banner ? 'banner error' : 'error-text'} role="alert">
      {translateMessage(error)}
    </p>
  ) : null;
}

/**
 * A form's submit button (saying `busyLabel` while it works, when given) and, with `onCancel`, its
 * Cancel button. `className` is the row's layout class (`form-actions` unless the screen has its own).
 */
export function FormButtons(props: { submitLabel: string; busy: boolean; busyLabel?: string; onCancel?: () => void; className?: string }) {
  const { t } = useTranslation(appTexts);
  return (
    <div className={props.className ?? 'form-actions'}>
      <button type="submit" className="button primary" disabled={props.busy}>
        {props.busy && props.busyLabel ? props.busyLabel : props.submitLabel}
      </button>
      {props.onCancel && (
        <button type="button" className="button" onClick={props.onCancel}>
          {t('actions.cancel')}
        </button>
      )}
    </div>
  );
}

/**
 * Asks in place before deleting (a tablet in a grow room is easy to mis-tap): a group named by
 * `question`, the `message` (the question itself unless given), then the confirming button and the one
 * that keeps the thing. The caller holds the "asking" state, because what the panel replaces (one
 * button, or a card's whole row of actions) differs from screen to screen.
 */
export function ConfirmPanel(props: { question: string; message?: ReactNode; confirmLabel?: string; keepLabel?: string; busy: boolean; onConfirm: () => void; onKeep: () => void; className?: string }) {
  const { t } = useTranslation(appTexts);
  return (
    <div className={props.className ? `confirm ${props.className}` : 'confirm'} role="group" aria-label={props.question}>
      <p>{props.message ?? props.question}</p>
      <div className="form-actions">
        <button type="button" className="button danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel ?? t('actions.delete')}
        </button>
        <button type="button" className="button" onClick={props.onKeep}>
          {props.keepLabel ?? t('actions.keep')}
        </button>
      </div>
    </div>
  );
}

/**
 * A filter's room choice: "All rooms" ('' as its value), then the rooms as given. Its label stands
 * beside the select, not around it: a wrapped select would put its value into its name.
 */
export function RoomFilter(props: { id: string; rooms: ReadonlyArray<{ id: string; Name?: unknown }>; value: string; onChange: (roomId: string) => void }) {
  const { t } = useTranslation(appTexts);
  return (
    <div>
      <label htmlFor={props.id}>{t('roomFilter.room')}</label>
      <select id={props.id} className="control" value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        <option value="">{t('roomFilter.all')}</option>
        {props.rooms.map((room) => (
          <option key={room.id} value={room.id}>
            {typeof room.Name === 'string' && room.Name ? room.Name : t('roomFilter.unnamed')}
          </option>
        ))}
      </select>
    </div>
  );
}
