/** The fields of a batch (spec part 1 §3 "Batch"), to create one or change one. */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchFormValues } from './model';
import { FormButtons, FormError } from '../shell/forms';
import { batchesTexts, statusName } from './texts';

/** Colours a grower can tell apart on a label and on the room's boxes; any other through the picker. */
const SWATCHES = [
  { name: 'green', value: '#2e7d32' },
  { name: 'lime', value: '#9bc53d' },
  { name: 'yellow', value: '#f2c14e' },
  { name: 'orange', value: '#ef6c00' },
  { name: 'red', value: '#c62828' },
  { name: 'pink', value: '#d81b60' },
  { name: 'purple', value: '#6a1b9a' },
  { name: 'blue', value: '#1565c0' },
  { name: 'teal', value: '#00897b' },
  { name: 'brown', value: '#6d4c41' },
] as const;

export function BatchForm(props: {
  initial: BatchFormValues;
  statuses: { builtIn: string[]; custom: string[] };
  submitLabel: string;
  busy: boolean;
  error: string | null;
  onSubmit: (values: BatchFormValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(batchesTexts);
  const [values, setValues] = useState<BatchFormValues>(props.initial);
  // An error belongs to what was submitted: it goes away as soon as the grower changes a field.
  const [submitted, setSubmitted] = useState<BatchFormValues | null>(null);
  const error = submitted === values ? props.error : null;
  const set = (field: keyof BatchFormValues) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  const statusKnown = [...props.statuses.builtIn, ...props.statuses.custom].includes(values.batchStatus);
  const customColor = values.color !== '' && !SWATCHES.some((swatch) => swatch.value.toLowerCase() === values.color.toLowerCase());

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(values);
    props.onSubmit(values);
  }

  return (
    <form className="form bt-batch-form" onSubmit={submit} noValidate>
      <div className="bt-form-row">
        <label>
          {t('form.batchNumber')}
          <input name="batchNumber" value={values.batchNumber} onChange={set('batchNumber')} autoComplete="off" required maxLength={100} />
        </label>
        <label>
          {t('form.numberOfPlants')}
          <input name="numberOfPlants" type="number" inputMode="numeric" min={0} step={1} value={values.numberOfPlants} onChange={set('numberOfPlants')} required />
        </label>
      </div>
      <div className="bt-form-row">
        <label>
          {t('form.strain')}
          <input name="strainName" value={values.strainName} onChange={set('strainName')} autoComplete="off" maxLength={200} />
        </label>
        <label>
          {t('form.status')}
          <select name="batchStatus" value={values.batchStatus} onChange={set('batchStatus')}>
            <optgroup label={t('form.stages')}>
              {props.statuses.builtIn.map((status) => (
                <option key={status} value={status}>
                  {statusName(status)}
                </option>
              ))}
            </optgroup>
            {props.statuses.custom.length > 0 && (
              <optgroup label={t('form.yourStatuses')}>
                {props.statuses.custom.map((status) => (
                  <option key={status} value={status}>
                    {status}
                  </option>
                ))}
              </optgroup>
            )}
            {/* A custom status deleted since the batch took it: the batch keeps it until changed. */}
            {!statusKnown && values.batchStatus && <option value={values.batchStatus}>{values.batchStatus}</option>}
          </select>
        </label>
      </div>
      <div className="bt-form-row">
        <label>
          {t('form.startDate')}
          <input name="startDate" type="date" value={values.startDate} onChange={set('startDate')} />
        </label>
        <label>
          {t('form.endDate')}
          <input name="endDate" type="date" value={values.endDate} onChange={set('endDate')} />
        </label>
      </div>
      <fieldset className="bt-swatches">
        <legend>{t('form.colour')}</legend>
        <label className={`bt-swatch bt-none${values.color === '' ? ' bt-chosen' : ''}`}>
          <input type="radio" name="color" value="" checked={values.color === ''} onChange={set('color')} />
          <span>{t('form.noColour')}</span>
        </label>
        {SWATCHES.map((swatch) => (
          <label key={swatch.value} className={`bt-swatch${values.color.toLowerCase() === swatch.value ? ' bt-chosen' : ''}`} title={t(`form.colours.${swatch.name}`)}>
            <input type="radio" name="color" value={swatch.value} aria-label={t(`form.colours.${swatch.name}`)} checked={values.color.toLowerCase() === swatch.value} onChange={set('color')} />
            <span className="bt-dot" style={{ background: swatch.value }} />
          </label>
        ))}
        <label className={`bt-swatch bt-picker${customColor ? ' bt-chosen' : ''}`}>
          <span>{t('form.other')}</span>
          <input type="color" aria-label={t('form.otherColour')} value={customColor && /^#[0-9a-f]{6}$/i.test(values.color) ? values.color.toLowerCase() : '#888888'} onChange={set('color')} />
        </label>
      </fieldset>
      <FormError banner error={error} />
      <FormButtons className="bt-row-actions" submitLabel={props.submitLabel} busyLabel={t('form.saving')} busy={props.busy} onCancel={props.onCancel} />
    </form>
  );
}
