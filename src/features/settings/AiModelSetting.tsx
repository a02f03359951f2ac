/**
 * The AI model setting (issue 17): which model the scan screen runs, from the built-in analyses and
 * the classifiers the company uploaded (they are on the tablet, so the choice shows offline). Admins
 * choose, upload a model (an ONNX image classifier with its labels) and delete one; uploading and
 * deleting need a connection, and the server refuses a file it cannot run, saying why.
 */
import { type FormEvent, useEffect, useState } from 'react';
import { BUILT_IN_MODELS } from '../../../common/models/catalogue';
import { settingsMessages as m } from '../../../common/messages/settings';
import { deleteAiModel, uploadAiModel } from '../../api/models';
import { setCompanyAiModel } from '../../api/settings';
import { useAction, useLocalQuery } from '../../app/hooks';
import { AI_MODEL_SELECTOR, type AiModelDoc } from '../scans/model';
import { Field, FormButtons, FormError } from '../shell/forms';

export function AiModelSetting({ value, companyId, editable }: { value: string; companyId: number; editable: boolean }) {
  const save = useAction(setCompanyAiModel, m.updated);
  const models = useLocalQuery<AiModelDoc>('operations', AI_MODEL_SELECTOR, 'ai-models').documents.filter((model) => model.latest);
  const choices = [...BUILT_IN_MODELS.map((model) => ({ key: model.key, name: model.name, description: model.description })), ...models.map((model) => ({ key: model.key, name: `${model.name} (version ${model.version})`, description: model.description ?? 'Uploaded by the company.' }))];
  const chosen = choices.find((choice) => choice.key === value);
  const [uploading, setUploading] = useState(false);
  const remove = useAction(deleteAiModel, 'AI model deleted.');
  return (
    <section className="card setting" aria-labelledby="setting-ai-model">
      <h2 id="setting-ai-model">AI model</h2>
      <p className="muted">The model a disease scan runs on the tablet. Sticky-trap scans always use the sticky-trap counter.</p>
      {editable ? (
        <select aria-label="AI model" className="control" value={value} disabled={save.busy} onChange={(event) => void save.run({ companyId, aiModel: event.target.value })}>
          {!chosen && <option value={value}>{value} (not on this tablet)</option>}
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
        <ul className="model-list" aria-label="Uploaded models">
          {models.map((model) => (
            <li key={model.id}>
              <span>
                <strong>{model.name}</strong> · version {model.version} · {model.labels.length} labels · {model.input.width}×{model.input.height}
              </span>
              {editable && (
                <button type="button" className="button danger" disabled={remove.busy} onClick={() => void remove.run({ companyId, modelId: model.model_id })}>
                  Delete {model.name}
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
            Upload a model
          </button>
        ))}
    </section>
  );
}

function UploadModelForm({ companyId, onDone }: { companyId: number; onDone: () => void }) {
  const upload = useAction(uploadAiModel, 'AI model uploaded: tablets get it with their next sync.', { inlineErrors: true });
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
      <h3>Upload an image classifier</h3>
      <p className="muted">An ONNX model that takes one image and gives one score per label. Each label may name a catalogue problem by its slug, as JSON: [&#123;&quot;label&quot;: &quot;powdery&quot;, &quot;problem_slug&quot;: &quot;powdery-mildew&quot;&#125;], or one label per line.</p>
      <Field label="Name">
        <input className="control" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
      </Field>
      <Field label="Labels">
        <textarea className="control" rows={5} value={labels} onChange={(event) => setLabels(event.target.value)} spellCheck={false} />
      </Field>
      <Field label="Description">
        <input className="control" value={description} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <Field label="Model file (.onnx)">
        <input type="file" accept=".onnx,application/octet-stream" onChange={(event) => setFile(event.target.files?.[0] ?? null)} />
      </Field>
      <details>
        <summary>Input size and normalisation (when the model does not fix them)</summary>
        {(['width', 'height', 'layout', 'mean', 'std'] as const).map((key) => (
          <Field key={key} label={{ width: 'Width (px)', height: 'Height (px)', layout: 'Layout (NCHW or NHWC)', mean: 'Mean (r, g, b)', std: 'Std (r, g, b)' }[key]}>
            <input className="control" value={input[key]} onChange={(event) => setInput({ ...input, [key]: event.target.value })} />
          </Field>
        ))}
      </details>
      <FormError error={missingFile ? 'Choose the model file.' : upload.error} />
      <FormButtons submitLabel="Upload model" busy={upload.busy} busyLabel="Uploading and checking…" onCancel={onDone} />
    </form>
  );
}
