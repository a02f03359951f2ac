/**
 * The one renderer of a form's fields: the fill screen and the form builder's preview both draw a
 * template with it, so a grower sees in the builder exactly what the form will ask.
 *
 * What shows and what is required comes from common/form-rules.ts (the same rules the server checks).
 * Decisions where the spec is silent:
 * - every field is labelled by its name alone (`<label for>` or `aria-labelledby`), and the required
 *   mark is visible text beside it, so the accessible name stays the field's name;
 * - browser validation is not used (no `required` attribute): the submit's domain check gives the
 *   spec's message, and the caller passes the field it names back as `missingFieldId`;
 * - a chosen photo counts as an answer of its Image field for hide-until-link rules, as it does for the
 *   submission (src/api/form-responses.ts names the answer after the photo);
 * - a Coordinates field shows the boxes being filled (read-only) when the caller says which
 *   (`coordinates`), otherwise the grower types the position;
 * - a Problem field picks problems from the catalogue or types the company's own, each with its
 *   severity (ProblemAnswer.tsx);
 * - a template's PageCSS is not injected (style from a form could restyle the whole app); a field's
 *   CSSClass is kept as a class of its row.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHOICE_SEPARATOR, choicesOf, visibleFieldIds } from '../../../common/form-rules';
import { photoFileName } from '../../api/form-responses';
import type { FormFieldRecord, FormTemplateRecord } from '../../../common/schemas/forms';
import { preparePhoto } from '../../app/photos';
import { messageOf } from '../../i18n/messages';
import { ProblemAnswer } from './ProblemAnswer';
import './forms.css';
import { formsTexts } from './texts';

export interface FormFieldsProps {
  template: FormTemplateRecord;
  /** Answers by String(FieldID). */
  answers: Record<string, string>;
  /** Photos by String(FieldID), for Image fields. */
  photos: Record<string, Blob>;
  onAnswer(fieldId: string, value: string): void;
  onPhoto(fieldId: string, photo: Blob | null): void;
  disabled?: boolean;
  /** The field to mark as missing (e.g. after a required field blocked submit). */
  missingFieldId?: string | null;
  /** What a Coordinates field shows read-only (e.g. "Grid A: boxes 3, 4"); without it the grower types it. */
  coordinates?: string | null;
}

/** The fields of `template` that show with `answers` (and photos), in Position order. */
export function shownFields(template: FormTemplateRecord, answers: Record<string, string>, photos: Record<string, Blob> = {}): FormFieldRecord[] {
  const visible = visibleFieldIds(template.fields, template.hide_rules, answersWithPhotos(answers, photos));
  return [...template.fields].sort((a, b) => a.Position - b.Position).filter((field) => visible.has(String(field.FieldID)));
}

function answersWithPhotos(answers: Record<string, string>, photos: Record<string, Blob>): Map<string, string> {
  const merged = new Map(Object.entries(answers));
  for (const [fieldId, photo] of Object.entries(photos)) {
    if (!merged.get(fieldId)?.trim()) merged.set(fieldId, photoFileName(photo));
  }
  return merged;
}

export function FormFields(props: FormFieldsProps) {
  const { t } = useTranslation(formsTexts);
  const baseId = useId();
  const fields = useMemo(() => shownFields(props.template, props.answers, props.photos), [props.template, props.answers, props.photos]);
  const missingRef = useRef<HTMLDivElement | null>(null);

  // Bring the missing field into view and put the cursor in it, so the grower sees what to answer. Only
  // after a button (Submit, "Try sending"): while someone is typing or choosing elsewhere (another
  // answer, the builder's editor) the focus stays where it is.
  useEffect(() => {
    const row = missingRef.current;
    if (!props.missingFieldId || !row) return;
    const active = document.activeElement;
    if (active && active !== document.body && !(active instanceof HTMLButtonElement)) return;
    row.scrollIntoView?.({ block: 'center' });
    row.querySelector<HTMLElement>('input:not([readonly]), select, textarea')?.focus({ preventScroll: true });
  }, [props.missingFieldId]);

  if (fields.length === 0) return <p className="empty">{t('fields.empty')}</p>;
  return (
    <div className="form-fields">
      {fields.map((field) => {
        const fieldId = String(field.FieldID);
        const missing = props.missingFieldId === fieldId;
        return (
          <div
            key={fieldId}
            ref={missing ? missingRef : undefined}
            className={['form-field', missing ? 'missing' : '', field.CSSClass ?? ''].filter(Boolean).join(' ')}
            data-field-id={fieldId}
          >
            <FieldInput field={field} controlId={`${baseId}-field-${fieldId}`} missing={missing} {...props} />
            {missing && <p className="field-missing">{t('fields.missing')}</p>}
          </div>
        );
      })}
    </div>
  );
}

/** The field's name (the control's label) and its visible required mark. */
function FieldName({ field, htmlFor, id }: { field: FormFieldRecord; htmlFor?: string; id?: string }) {
  const { t } = useTranslation(formsTexts);
  const required = Boolean(Number(field.IsRequired));
  const name = htmlFor ? (
    <label htmlFor={htmlFor} className="field-name">
      {field.FieldName}
    </label>
  ) : (
    <span id={id} className="field-name">
      {field.FieldName}
    </span>
  );
  return (
    <div className="field-head">
      {name}
      {required && (
        <span className="required-mark" aria-hidden="true">
          {t('fields.required')}
        </span>
      )}
    </div>
  );
}

function FieldInput(props: FormFieldsProps & { field: FormFieldRecord; controlId: string; missing: boolean }) {
  const { t } = useTranslation(formsTexts);
  const { field, controlId, disabled, missing } = props;
  const fieldId = String(field.FieldID);
  const value = props.answers[fieldId] ?? '';
  const required = Boolean(Number(field.IsRequired));
  const common = { id: controlId, disabled, 'aria-required': required || undefined, 'aria-invalid': missing || undefined } as const;
  const answer = (next: string) => props.onAnswer(fieldId, next);

  switch (field.FieldType) {
    case 'Textarea':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <textarea {...common} rows={4} value={value} onChange={(event) => answer(event.target.value)} />
        </>
      );
    case 'Number':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <input {...common} type="number" inputMode="decimal" step="any" value={value} onChange={(event) => answer(event.target.value)} />
        </>
      );
    case 'Date':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <input {...common} type="date" value={value} onChange={(event) => answer(event.target.value)} />
        </>
      );
    case 'Dropdown':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <select {...common} value={value} onChange={(event) => answer(event.target.value)}>
            <option value="">{t('fields.choose')}</option>
            {field.FieldOptions.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
            {/* An answer whose option was since removed from the template still shows. */}
            {value && !field.FieldOptions.includes(value) && <option value={value}>{value}</option>}
          </select>
        </>
      );
    case 'Radio':
      return (
        <>
          <FieldName field={field} id={`${controlId}-name`} />
          <div role="radiogroup" aria-labelledby={`${controlId}-name`} aria-required={required || undefined} aria-invalid={missing || undefined} className="choices">
            {field.FieldOptions.map((option, index) => (
              <label key={option} className="choice">
                <input id={index === 0 ? controlId : undefined} type="radio" name={controlId} value={option} checked={value === option} disabled={disabled} onChange={() => answer(option)} />
                <span>{option}</span>
              </label>
            ))}
            {value && !disabled && (
              <button type="button" className="button choice-clear" onClick={() => answer('')}>
                {t('fields.clear')}
              </button>
            )}
          </div>
        </>
      );
    case 'Checkbox': {
      const chosen = choicesOf(value);
      const toggle = (option: string, on: boolean) => {
        const next = new Set(chosen);
        if (on) next.add(option);
        else next.delete(option);
        // Options keep the template's order, whatever order they were ticked in.
        const known = field.FieldOptions.filter((each) => next.has(each));
        const unknown = [...next].filter((each) => !field.FieldOptions.includes(each));
        answer([...known, ...unknown].join(CHOICE_SEPARATOR));
      };
      return (
        <>
          <FieldName field={field} id={`${controlId}-name`} />
          <div role="group" aria-labelledby={`${controlId}-name`} aria-required={required || undefined} aria-invalid={missing || undefined} className="choices">
            {field.FieldOptions.map((option, index) => (
              <label key={option} className="choice">
                <input id={index === 0 ? controlId : undefined} type="checkbox" value={option} checked={chosen.includes(option)} disabled={disabled} onChange={(event) => toggle(option, event.target.checked)} />
                <span>{option}</span>
              </label>
            ))}
          </div>
        </>
      );
    }
    case 'Image':
      return <ImageInput {...props} />;
    case 'Coordinates':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          {props.coordinates ? (
            <input {...common} type="text" readOnly value={props.coordinates} className="read-only" />
          ) : (
            <input {...common} type="text" placeholder={t('fields.coordinatesPlaceholder')} value={value} onChange={(event) => answer(event.target.value)} />
          )}
        </>
      );
    case 'Problem':
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <ProblemAnswer fieldName={field.FieldName} controlId={controlId} value={value} disabled={disabled} required={required} missing={missing} onAnswer={answer} />
        </>
      );
    case 'Text':
    default:
      return (
        <>
          <FieldName field={field} htmlFor={controlId} />
          <input {...common} type="text" value={value} onChange={(event) => answer(event.target.value)} />
        </>
      );
  }
}

/** A photo from the camera (or the tablet's files), its thumbnail, and a way to take it off again. */
function ImageInput(props: FormFieldsProps & { field: FormFieldRecord; controlId: string; missing: boolean }) {
  const { t } = useTranslation(formsTexts);
  const { field, controlId, disabled, missing } = props;
  const fieldId = String(field.FieldID);
  const photo = props.photos[fieldId] ?? null;
  const url = useObjectUrl(photo);
  const [preparing, setPreparing] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  async function choose(file: File) {
    setPhotoError(null);
    setPreparing(true);
    try {
      props.onPhoto(fieldId, await preparePhoto(file));
    } catch (error) {
      setPhotoError(messageOf(error));
    } finally {
      setPreparing(false);
    }
  }
  return (
    <>
      <FieldName field={field} htmlFor={controlId} />
      <div className="photo-row">
        <span className={`button file-button${disabled || preparing ? ' disabled' : ''}`}>
          {preparing ? t('fields.preparingPhoto') : photo ? t('fields.takeAnotherPhoto') : t('fields.takePhoto')}
          <input
            id={controlId}
            type="file"
            accept="image/*"
            capture="environment"
            disabled={disabled || preparing}
            aria-required={Boolean(Number(field.IsRequired)) || undefined}
            aria-invalid={missing || undefined}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void choose(file);
              // Choosing the same file again must fire again.
              event.target.value = '';
            }}
          />
        </span>
        {photo && url && (
          <figure className="photo-preview">
            <img src={url} alt={t('fields.photoFor', { field: field.FieldName })} />
            <button type="button" className="button danger" disabled={disabled} onClick={() => props.onPhoto(fieldId, null)}>
              {t('fields.removePhoto')}
            </button>
          </figure>
        )}
      </div>
      {photoError && (
        <p className="error-text" role="alert">
          {photoError}
        </p>
      )}
    </>
  );
}

/** An object URL of a Blob, revoked when the Blob changes or the component goes. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return undefined;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
