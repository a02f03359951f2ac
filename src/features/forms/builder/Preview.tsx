/**
 * The form as growers will see it, drawn by the fill screen's own renderer (FormFields) from the draft,
 * saved or not. It keeps answers of its own so the Admin can try the hide-until-link rules, and "Try
 * sending" marks the first required field left blank, as the fill screen does (common/form-rules.ts).
 * Nothing here is saved.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstMissingRequired } from '../../../../common/form-rules';
import { formResponseMessages } from '../../../../common/messages/form-responses';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { translateMessage } from '../../../i18n/messages';
import { FormFields } from '../FormFields';
import { categoryName, formsTexts } from '../texts';

export function Preview({ template }: { template: FormTemplateRecord }) {
  const { t } = useTranslation(formsTexts);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [photos, setPhotos] = useState<Record<string, Blob>>({});
  const [tried, setTried] = useState(false);

  // A chosen photo answers its field, as it does when the form is sent.
  const answerMap = useMemo(() => {
    const map = new Map<string, string>(Object.entries(answers));
    for (const fieldId of Object.keys(photos)) if (!map.get(fieldId)?.trim()) map.set(fieldId, 'photo');
    return map;
  }, [answers, photos]);
  const missing = tried ? firstMissingRequired(template.fields, template.hide_rules, answerMap) : null;

  function answer(fieldId: string, value: string) {
    setAnswers((current) => ({ ...current, [fieldId]: value }));
  }
  function photo(fieldId: string, blob: Blob | null) {
    setPhotos((current) => {
      const { [fieldId]: _old, ...rest } = current;
      return blob ? { ...rest, [fieldId]: blob } : rest;
    });
  }
  function clear() {
    setAnswers({});
    setPhotos({});
    setTried(false);
  }

  return (
    <section className="card fb-preview" aria-label={t('preview.label')}>
      <div className="fb-preview-head">
        <h2>{template.TemplateName}</h2>
        <span className="muted">{t('preview.categoryForm', { category: categoryName(template.FormCategory) })}</span>
      </div>
      <p className="muted">{t('preview.help')}</p>
      <FormFields template={template} answers={answers} photos={photos} onAnswer={answer} onPhoto={photo} missingFieldId={missing ? String(missing.FieldID) : null} />
      {tried && (
        <p className={missing ? 'error-text' : 'fb-ok'} role="status">
          {missing ? translateMessage(formResponseMessages.fieldRequired(missing.FieldName)) : t('preview.allAnswered')}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button primary" onClick={() => setTried(true)}>
          {t('preview.trySending')}
        </button>
        <button type="button" className="button" onClick={clear}>
          {t('preview.clearAnswers')}
        </button>
      </div>
    </section>
  );
}
