/**
 * A PIN field with a large on-screen keypad, for a tablet held in one hand or used with gloves: the
 * field takes digits from the tablet's own numeric keyboard too (inputmode numeric). A PIN is never
 * filled in by the browser (autocomplete off) and shows as dots.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { kioskTexts } from './texts';

export const PIN_MAX_LENGTH = 8;

const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, PIN_MAX_LENGTH);

export function PinField(props: { label: string; value: string; onChange: (value: string) => void; onFocus?: () => void; autoFocus?: boolean; name: string; invalid?: boolean }) {
  const id = useId();
  return (
    <div className="pin-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        className="pin-input"
        type="password"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        maxLength={PIN_MAX_LENGTH}
        value={props.value}
        aria-invalid={props.invalid || undefined}
        autoFocus={props.autoFocus}
        onFocus={props.onFocus}
        onChange={(event) => props.onChange(digitsOnly(event.target.value))}
      />
    </div>
  );
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;
/** The erase key's sign (its accessible name is in words). */
const ERASE_SIGN = '⌫';

/** The keypad: digits, "Clear" and "Delete last digit"; it types into the field it is for (`label`). */
export function Keypad(props: { label: string; value: string; onChange: (value: string) => void; disabled?: boolean }) {
  const { t } = useTranslation(kioskTexts);
  const type = (digit: string) => props.onChange(digitsOnly(props.value + digit));
  return (
    <div className="keypad" role="group" aria-label={t('keypad.label', { field: props.label })}>
      {KEYS.map((digit) => (
        <button key={digit} type="button" className="keypad-key" disabled={props.disabled} onClick={() => type(digit)}>
          {digit}
        </button>
      ))}
      <button type="button" className="keypad-key keypad-small" disabled={props.disabled} onClick={() => props.onChange('')}>
        {t('keypad.clear')}
      </button>
      <button type="button" className="keypad-key" disabled={props.disabled} onClick={() => type('0')}>
        0
      </button>
      <button type="button" className="keypad-key keypad-small" disabled={props.disabled} aria-label={t('keypad.deleteLast')} onClick={() => props.onChange(props.value.slice(0, -1))}>
        {ERASE_SIGN}
      </button>
    </div>
  );
}
