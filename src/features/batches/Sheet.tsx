/**
 * A panel over the screen for one task (a form, a batch's details), sliding in from the right on a
 * tablet; it closes with its Close button or Escape. Not a native modal <dialog>: that sits in the
 * browser's top layer, above the toasts, which must stay readable while a form is open.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { batchesTexts } from './texts';

export function Sheet(props: { title: string; onClose: () => void; children: ReactNode; actions?: ReactNode; wide?: boolean }) {
  const { t } = useTranslation(batchesTexts);
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Callers pass a new function each render; focus moves once, when the sheet opens.
  const close = useRef(props.onClose);
  close.current = props.onClose;
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);
  return (
    // A tap beside the sheet does not close it: a stray touch in the grow room must not lose a half-filled form.
    <div className="bt-sheet-backdrop">
      <div ref={panel} className={`bt-sheet${props.wide ? ' bt-wide' : ''}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className="bt-sheet-head">
          <h2 id={titleId}>{props.title}</h2>
          {props.actions}
          <button type="button" className="button" onClick={() => close.current()}>
            {t('sheet.close')}
          </button>
        </div>
        <div className="bt-sheet-body">{props.children}</div>
      </div>
    </div>
  );
}

/** A question before something that cannot be undone (delete, harvest). */
export function Confirm(props: { question: ReactNode; detail?: ReactNode; confirmLabel: string; danger?: boolean; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation(batchesTexts);
  return (
    <div className="bt-confirm" role="group" aria-label={t('sheet.confirm')}>
      <p className="bt-confirm-question">{props.question}</p>
      {props.detail && <p className="muted">{props.detail}</p>}
      <div className="bt-row-actions">
        <button type="button" className={`button ${props.danger ? 'danger' : 'primary'}`} disabled={props.busy} onClick={props.onConfirm}>
          {props.busy ? t('sheet.working') : props.confirmLabel}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      </div>
    </div>
  );
}
