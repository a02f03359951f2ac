/**
 * The AI model setting (issue 17): which model the scan screen runs, from the built-in analyses and
 * the classifiers the company uploaded (they are on the tablet, so the choice shows offline). Admins
 * choose, upload a model (an ONNX image classifier with its labels) and delete one; uploading and
 * deleting need a connection, and the server refuses a file it cannot run, saying why.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BUILT_IN_MODELS } from '../../../common/models/catalogue';
import { settingsMessages as m } from '../../../common/messages/settings';
import { deleteAiModel, uploadAiModel } from '../../api/models';
import { setCompanyAiModel } from '../../api/settings';
import { useAction, useLocalQuery } from '../../app/hooks';
import { AI_MODEL_SELECTOR, type AiModelDoc } from '../scans/model';
import { translateMessage } from '../../i18n/messages';
import { Field, FormButtons, FormError } from '../shell/forms';
import { settingsTexts } from './texts';

export function AiModelSetting({ value, companyId, editable }: { value: string; companyId: number; editable: boolean }) {
  const { t } = useTranslation(settingsTexts);
  const save = useAction(setCompanyAiModel, m.updated);
  const models = useLocalQuery<AiModelDoc>('operations', AI_MODEL_SELECTOR, 'ai-models').documents.filter((model) => model.latest);
  const choices = [
    ...BUILT_IN_MODELS.map((model) => ({ key: model.key, name: translateMessage(model.name), description: translateMessage(model.description) })),
    ...models.map((model) => ({ key: model.key, name: t('aiModel.uploadedName', { name: model.name, version: model.version }), description: model.description ?? t('aiModel.uploadedByCompany') })),
  ];
  const chosen = choices.find((choice) => choice.key === value);
  const [uploading, setUploading] = useState(false);
  const remove = useAction(deleteAiModel, t('aiModel.deleted'));
  return (
    <section className="card setting" aria-labelledby="setting-ai-model">
      <h2 id="setting-ai-model">{t('aiModel.heading')}</h2>
      <p className="muted">{t('aiModel.help')}</p>
      {editable ? (
        <select aria-label={t('aiModel.heading')} className="control" value={value} disabled={save.busy} onChange={(event) => void save.run({ companyId, aiModel: event.target.value })}>
          {!chosen && <option value={value}>{t('aiModel.notOnTablet', { value })}</option>}
          {choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.name}
            </option>
          ))}
        </select>
      ) : (
        <p className="setting-value">{chosen?.name ?? value}</p>
      )}
      {chosen && <p className="muted">{chosen.description}</p>}
      <FormError error={save.error} />
      {models.length > 0 && (
        <ul className="model-list" aria-label={t('aiModel.uploaded')}>
          {models.map((model) => (
            <li key={model.id}>
              <span>
                <strong>{model.name}</strong> {t('aiModel.facts', { version: model.version, count: model.labels.length, width: model.input.width, height: model.input.height })}
              </span>
              {editable && (
                <button type="button" className="button danger" disabled={remove.busy} onClick={() => void remove.run({ companyId, modelId: model.model_id })}>
                  {t('aiModel.delete', { name: model.name })}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError error={remove.error} />
      {editable &&
        (uploading ? (
          <UploadModelForm companyId={companyId} onDone={() => setUploading(false)} />
        ) : (
          <button type="button" className="button" onClick={() => setUploading(true)}>
            {t('aiModel.upload')}
          </button>
        ))}
    </section>
  );
}

/** What an uploaded model may say of its input when the file does not fix it. */
const MODEL_INPUTS = ['width', 'height', 'layout', 'mean', 'std'] as const;

function UploadModelForm({ companyId, onDone }: { companyId: number; onDone: () => void }) {
  const { t } = useTranslation(settingsTexts);
  const upload = useAction(uploadAiModel, t('aiModel.uploadedToast'), { inlineErrors: true });
  const [name, setName] = useState('');
  const [labels, setLabels] = useState('');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [input, setInput] = useState({ width: '', height: '', layout: '', mean: '', std: '' });
  const [missingFile, setMissingFile] = useState(false);
  useEffect(() => setMissingFile(false), [file]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setMissingFile(true);
      return;
    }
    void upload.run({ companyId, name, labels, description, file, ...input }).then((ok) => ok && onDone());
  }
  return (
    <form className="upload-model" onSubmit={submit} noValidate>
      <h3>{t('aiModel.form.heading')}</h3>
      <p className="muted">{t('aiModel.form.help')}</p>
      <Field label={t('aiModel.form.name')}>
        <input className="control" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
      </Field>
      <Field label={t('aiModel.form.labels')}>
        <textarea className="control" rows={5} value={labels} onChange={(event) => setLabels(event.target.value)} spellCheck={false} />
      </Field>
      <Field label={t('aiModel.form.description')}>
        <input className="control" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <Field label={t('aiModel.form.file')}>
        <input type="file" accept=".onnx,application/octet-stream" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      </Field>
      <details>
        <summary>{t('aiModel.form.input')}</summary>
        {MODEL_INPUTS.map((key) => (
          <Field key={key} label={t(`aiModel.form.inputs.${key}`)}>
            <input className="control" value={input[key]} onChange={(event) => setInput({ ...input, [key]: event.target.value })} />
          </Field>
        ))}
      </details>
      <FormError error={missingFile ? t('aiModel.form.chooseFile') : upload.error} />
      <FormButtons submitLabel={t('aiModel.form.submit')} busy={upload.busy} busyLabel={t('aiModel.form.busy')} onCancel={onDone} />
    </form>
  );
}
