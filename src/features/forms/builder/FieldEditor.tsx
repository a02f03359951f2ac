/**
 * One field of the form being built, edited in place: name, type (FIELD_TYPES; what a Problem field
 * records is said beside it), options for the choice types (one per line), required, an optional CSS
 * class, and its hide-until-link rule ("Show only when…": another field of the form and the answer it
 * waits for; a choice field's answer is picked from its options, any other typed; blank means any
 * answer). The field joins the draft on "Keep field"; nothing reaches the server before the form's Save.
 */
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_TYPES, type FieldType, PROBLEM_FIELD_TYPE } from '../../../../common/messages/forms';
import { Field, FormButtons, FormError } from '../../shell/forms';
import { fieldTypeName, formsTexts } from '../texts';
import { type Draft, type DraftField, fieldLabel, fieldProblem, isChoice, linkCandidates, optionsOf } from './draft';

export function FieldEditor(props: { field: DraftField; draft: Draft; isNew: boolean; onKeep: (field: DraftField) => void; onCancel: () => void }) {
  const { t } = useTranslation(formsTexts);
  const { field, draft } = props;
  const [name, setName] = useState(field.name);
  const [type, setType] = useState<FieldType>(field.type);
  const [optionsText, setOptionsText] = useState(field.options.join('\n'));
  const [required, setRequired] = useState(field.required);
  const [cssClass, setCssClass] = useState(field.cssClass);
  const [linkedKey, setLinkedKey] = useState(field.rule?.linkedKey ?? '');
  const [input, setInput] = useState(field.rule?.input ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const candidates = linkCandidates(draft, field.key);
  const linked = candidates.find((each) => each.key === linkedKey) ?? null;
  const title = props.isNew ? t('editor.newField') : t('editor.editField', { field: field.name });

  function submit(event: FormEvent) {
    event.preventDefault();
    const next: DraftField = {
      ...field,
      name: name.trim(),
      type,
      options: isChoice(type) ? optionsOf(optionsText) : [],
      required,
      cssClass: cssClass.trim(),
      rule: linked ? { linkedKey: linked.key, input: input.trim() } : null,
    };
    const found = fieldProblem(next);
    setProblem(found);
    if (!found) props.onKeep(next);
  }

  function chooseLinked(key: string) {
    setLinkedKey(key);
    setInput('');
  }

  return (
    <form className="form card fb-field-editor" onSubmit={submit} noValidate aria-label={title}>
      <h2>{title}</h2>
      <div className="fb-row">
        <Field label={t('editor.fieldName')}>
          <input value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" autoFocus />
        </Field>
        <Field label={t('editor.fieldType')}>
          <select value={type} onChange={(event) => setType(event.target.value as FieldType)}>
            {FIELD_TYPES.map((each) => (
              <option key={each} value={each}>
                {fieldTypeName(each)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {type === PROBLEM_FIELD_TYPE && (
        <p className="muted">
          {t('editor.problemHint')}
        </p>
      )}
      {isChoice(type) && (
        <Field label={t('editor.options')}>
          <textarea rows={Math.max(3, optionsOf(optionsText).length + 1)} value={optionsText} onChange={(event) => setOptionsText(event.target.value)} />
        </Field>
      )}
      <label className="fb-check">
        <input type="checkbox" checked={required} onChange={(event) => setRequired(event.target.checked)} />
        {t('editor.required')}
      </label>
      <Field label={t('editor.cssClass')}>
        <input value={cssClass} onChange={(event) => setCssClass(event.target.value)} autoComplete="off" spellCheck={false} />
      </Field>

      <fieldset className="fb-rule">
        <legend>{t('editor.showOnlyWhen')}</legend>
        {candidates.length === 0 ? (
          <p className="muted">{t('editor.alwaysShows')}</p>
        ) : (
          <div className="fb-row">
            <Field label={t('editor.linkedField')}>
              <select value={linked ? linked.key : ''} onChange={(event) => chooseLinked(event.target.value)}>
                <option value="">{t('editor.alwaysShow')}</option>
                {candidates.map((candidate) => (
                  <option key={candidate.key} value={candidate.key}>
                    {fieldLabel(candidate, draft.fields.indexOf(candidate))}
                  </option>
                ))}
              </select>
            </Field>
            {linked && <AnswerInput linked={linked} value={input} onChange={setInput} />}
          </div>
        )}
      </fieldset>

      <FormError error={problem} />
      <FormButtons submitLabel={props.isNew ? t('editor.addField') : t('editor.keepChanges')} busy={false} onCancel={props.onCancel} />
    </form>
  );
}

/** The answer a rule waits for: one of a choice field's options, or typed; blank is any answer. */
function AnswerInput({ linked, value, onChange }: { linked: DraftField; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation(formsTexts);
  if (isChoice(linked.type)) {
    return (
      <Field label={t('editor.withAnswer')}>
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{t('editor.anyAnswer')}</option>
          {linked.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
          {/* A rule whose answer was since taken out of the options still says what it waits for. */}
          {value && !linked.options.includes(value) && <option value={value}>{t('editor.noLongerOption', { answer: value })}</option>}
        </select>
      </Field>
    );
  }
  return (
    <Field label={t('editor.withAnswer')}>
      <input value={value} onChange={(event) => onChange(event.target.value)} placeholder={t('editor.blankAnyAnswer')} autoComplete="off" />
    </Field>
  );
}
