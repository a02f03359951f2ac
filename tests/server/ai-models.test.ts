/**
 * The company's own image models (issue 17), over HTTP on the real app: a tiny ONNX classifier built
 * in the test (tests/support/onnx-model.ts: channel means × a fixed matrix, so its answer is known)
 * is uploaded, checked, listed, selected, run on photos by onnxruntime-node, versioned, synced to
 * tablets and deleted; unusable files and other companies are refused.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileMessages } from '../../common/messages/files';
import { httpMessages } from '../../common/messages/http';
import { modelMessages as m } from '../../common/messages/models';
import { SETTINGS_DEFAULTS, settingsMessages } from '../../common/messages/settings';
import type { AiModelRecord, ImageAnalysis } from '../../common/schemas/models';
import { countStickyTrap } from '../../common/vision/sticky-trap';
import { syntheticTrap } from '../../common/vision/synthetic-trap';
import { tinyColourClassifier, type TinyClassifierOptions } from '../support/onnx-model';
import { createSuperAdmin, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

const RGB_LABELS = [
  { label: 'red', problem_slug: 'botrytis' },
  { label: 'green', problem_slug: null },
  { label: 'blue', problem_slug: 'powdery-mildew' },
];

type Form = Record<string, string | number | Blob>;

const onnxBlob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' });

function upload(token: string, companyId: number, name: string, options: TinyClassifierOptions = {}, fields: Form = {}) {
  return server.request<{ ai_model: AiModelRecord; message: string }>('POST', '/upload_ai_model', {
    token,
    form: { company_id: companyId, name, labels: JSON.stringify(RGB_LABELS), model: onnxBlob(tinyColourClassifier(options)), ...fields },
  });
}

/** A photo of one colour with a sprinkle of another (every 9th pixel), as PNG. */
async function photo(colour: [number, number, number], sprinkle: [number, number, number] = [200, 30, 30], width = 64, height = 48) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < width * height; index += 1) pixels.set(index % 9 === 0 ? sprinkle : colour, index * 3);
  return new Blob([new Uint8Array(await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer())], { type: 'image/png' });
}

const GREEN: [number, number, number] = [40, 170, 60];
const BLUE: [number, number, number] = [30, 60, 190];

function analyse(token: string, companyId: number, image: Blob, aiModel?: string) {
  return server.request<{ analysis: ImageAnalysis }>('POST', '/analyse_image', { token, form: { company_id: companyId, image, ...(aiModel ? { ai_model: aiModel } : {}) } });
}

const list = (token: string, companyId: number) => server.request<{ ai_models: Array<{ key: string; built_in: boolean; version?: number }> }>('GET', '/get_ai_models', { token, query: { company_id: companyId } });
const setModel = (token: string, companyId: number, key: string) => server.request('POST', '/set_company_ai_model', { token, query: { company_id: companyId, ai_model: key } });
const settingOf = async (companyId: number) => (await server.request<{ ai_model: string }>('GET', '/get_company_ai_model', { token: farm.regular.token, query: { company_id: companyId } })).body.ai_model;

async function fetchFile(token: string, modelId: number) {
  const response = await fetch(`${server.url}/api/get_ai_model_file?model_id=${modelId}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const auditTitles = async (companyId: number) =>
  (await server.database.db.selectFrom('audit_events').select('event_title').where('company_id', '=', companyId).execute()).map((row) => row.event_title);

describe('an uploaded classifier, from upload to analysis', () => {
  let model: AiModelRecord;

  beforeAll(async () => {
    const response = await upload(farm.admin.token, farm.companyId, 'Colour test', {}, { description: 'Channel means' });
    expect(response.status).toBe(200);
    model = response.body.ai_model;
  });

  it('is stored with its key, version, labels and the input read from the model', async () => {
    expect(model).toMatchObject({
      built_in: false,
      key: 'custom-colour-test',
      name: 'Colour test',
      description: 'Channel means',
      version: 1,
      latest: true,
      labels: RGB_LABELS,
      input: { width: 8, height: 8, layout: 'NCHW', mean: [0, 0, 0], std: [1, 1, 1] },
      input_name: 'image',
      output_name: 'scores',
      company_id: farm.companyId,
      created_by: farm.admin.id,
    });
    expect(await auditTitles(farm.companyId)).toContain('Uploaded AI model Colour test (version 1)');
  });

  it('is listed after the built-in analyses, to Regular users too', async () => {
    const response = await list(farm.regular.token, farm.companyId);
    expect(response.status).toBe(200);
    const keys = response.body.ai_models.map((entry) => entry.key);
    expect(keys.slice(0, 2)).toEqual(['plantDiseaseRecognition', 'stickyTrapCounter']);
    expect(response.body.ai_models.slice(0, 2).every((entry) => entry.built_in)).toBe(true);
    expect(keys).toContain('custom-colour-test');
    expect((await list(other.regular.token, other.companyId)).body.ai_models.map((entry) => entry.key)).not.toContain('custom-colour-test');
  });

  it('is selected with set_company_ai_model, and analyse_image runs it on a mostly green photo: green first', async () => {
    const selected = await setModel(farm.admin.token, farm.companyId, model.key);
    expect(selected.status).toBe(200);
    expect(await settingOf(farm.companyId)).toBe(model.key);

    const response = await analyse(farm.regular.token, farm.companyId, await photo(GREEN));
    expect(response.status).toBe(200);
    const { analysis } = response.body;
    expect(analysis).toMatchObject({ type: 'classifier', model: { key: model.key, name: 'Colour test', version: 1, model_id: model.model_id } });
    if (analysis.type !== 'classifier') throw new Error('not a classifier analysis');
    expect(analysis.findings.map((finding) => finding.label)).toEqual(['green', 'red', 'blue']);
    expect(analysis.findings[0]).toMatchObject({ label: 'green', problem_slug: null });
    expect(analysis.findings[0]!.confidence).toBeGreaterThan(0.5);
    const total = analysis.findings.reduce((sum, finding) => sum + finding.confidence, 0);
    expect(total).toBeCloseTo(1, 5);
  });

  it('analyse_image takes another model by its key, and a JPEG photo', async () => {
    const jpeg = new Blob([new Uint8Array(await sharp(Buffer.from(await (await photo(BLUE)).arrayBuffer())).jpeg().toBuffer())], { type: 'image/jpeg' });
    const response = await analyse(farm.regular.token, farm.companyId, jpeg, model.key);
    expect(response.status).toBe(200);
    if (response.body.analysis.type !== 'classifier') throw new Error('not a classifier analysis');
    expect(response.body.analysis.findings[0]).toMatchObject({ label: 'blue', problem_slug: 'powdery-mildew' });
  });

  it('serves its file to the company’s users only, as immutable bytes', async () => {
    const own = await fetchFile(farm.regular.token, model.model_id);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('application/octet-stream');
    expect(own.headers.get('cache-control')).toContain('immutable');
    expect(own.bytes).toEqual(tinyColourClassifier());
    const elsewhere = await fetchFile(other.admin.token, model.model_id);
    expect(elsewhere.status).toBe(403);
    expect(JSON.parse(new TextDecoder().decode(elsewhere.bytes))).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await fetchFile(farm.regular.token, 2_000_000_000)).status).toBe(404);
  });

  it('travels to the company’s tablets in the operations collection (kind ai_model)', async () => {
    const id = `ai_model:${model.model_id}`;
    const pulled = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (documents) => documents.has(id));
    expect(pulled.get(id)).toMatchObject({ kind: 'ai_model', _deleted: false, key: model.key, version: 1, labels: RGB_LABELS, input: model.input, output_name: 'scores' });
    const elsewhere = await pullUntil(server, other.regular.token, 'operations', () => true);
    expect(elsewhere.has(id)).toBe(false);
  });
});

describe('upload_ai_model refuses', () => {
  it('a Regular user (403) and another company (403)', async () => {
    expect((await upload(farm.regular.token, farm.companyId, 'Not mine')).status).toBe(403);
    const elsewhere = await upload(other.admin.token, farm.companyId, 'Not theirs');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toMatchObject({ status: 'error', message: httpMessages.otherCompany });
  });

  it('random bytes, as not an ONNX model', async () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 251);
    const response = await server.request('POST', '/upload_ai_model', {
      token: farm.admin.token,
      form: { company_id: farm.companyId, name: 'Noise', labels: JSON.stringify(RGB_LABELS), model: onnxBlob(bytes) },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.notOnnx });
  });

  it('a model whose output does not have one score per label', async () => {
    const response = await server.request('POST', '/upload_ai_model', {
      token: farm.admin.token,
      form: { company_id: farm.companyId, name: 'Two labels', labels: JSON.stringify(['red', 'green']), model: onnxBlob(tinyColourClassifier()) },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.labelCountMismatch(3, 2) });
    expect(m.labelCountMismatch(5, 3)).toBe('The model has 5 outputs but 3 labels were given.');
  });

  it('a model that keeps its weights in another file (it would read the server’s disk)', async () => {
    const response = await upload(farm.admin.token, farm.companyId, 'External', { externalWeights: 'data/db' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.externalData });
  });

  it('a label naming no catalogue problem, repeated labels, and labels that are not a list', async () => {
    const send = (labels: string) =>
      server.request('POST', '/upload_ai_model', { token: farm.admin.token, form: { company_id: farm.companyId, name: 'Labels', labels, model: onnxBlob(tinyColourClassifier()) } });
    expect((await send(JSON.stringify([{ label: 'red', problem_slug: 'no-such-problem' }, 'green', 'blue']))).body).toEqual({ status: 'error', message: m.problemSlugUnknown('no-such-problem') });
    expect((await send(JSON.stringify(['red', 'red', 'blue']))).body).toEqual({ status: 'error', message: m.labelsRepeated('red') });
    expect((await send('red, green, blue')).body).toEqual({ status: 'error', message: m.labelsInvalid });
  });

  it('a missing file, and a name with no letter for its key', async () => {
    const noFile = await server.request('POST', '/upload_ai_model', { token: farm.admin.token, form: { company_id: farm.companyId, name: 'Nothing', labels: JSON.stringify(RGB_LABELS) } });
    expect(noFile.body).toEqual({ status: 'error', message: m.fileRequired });
    expect((await upload(farm.admin.token, farm.companyId, '!!!')).body).toEqual({ status: 'error', message: m.nameWithoutLetters });
  });

  it('a model whose input size is open unless width and height are given, which it then uses', async () => {
    const open = await upload(farm.admin.token, farm.companyId, 'Open size', { size: null });
    expect(open.body).toEqual({ status: 'error', message: m.sizeUnknown });
    const sized = await upload(farm.admin.token, farm.companyId, 'Open size', { size: null }, { width: 16, height: 12 });
    expect(sized.status).toBe(200);
    expect(sized.body.ai_model.input).toMatchObject({ width: 16, height: 12, layout: 'NCHW' });
    const disagreeing = await upload(farm.admin.token, farm.companyId, 'Fixed size', {}, { width: 16 });
    expect(disagreeing.body).toEqual({ status: 'error', message: m.sizeDisagrees(8, 8) });
  });
});

describe('a channels-last model that ends in a softmax, with mean and std', () => {
  it('reads its layout from the shape and gives the same answer', async () => {
    const response = await upload(farm.admin.token, farm.companyId, 'Colour NHWC', { layout: 'NHWC', softmax: true }, { mean: '0.5, 0.5, 0.5', std: '[0.25, 0.25, 0.25]' });
    expect(response.status).toBe(200);
    const model = response.body.ai_model;
    expect(model.input).toEqual({ width: 8, height: 8, layout: 'NHWC', mean: [0.5, 0.5, 0.5], std: [0.25, 0.25, 0.25] });
    const analysed = await analyse(farm.regular.token, farm.companyId, await photo(GREEN), model.key);
    if (analysed.body.analysis.type !== 'classifier') throw new Error('not a classifier analysis');
    // Outputs that are already probabilities are kept as they are (common/models/classifier.ts).
    expect(analysed.body.analysis.findings[0]?.label).toBe('green');
  });
});

describe('versions', () => {
  it('a second upload under the same name is version 2, which the key then means; version 1 stays fetchable', async () => {
    const first = (await upload(farm.admin.token, farm.companyId, 'Versioned')).body.ai_model;
    const second = await upload(farm.admin.token, farm.companyId, 'versioned!', { softmax: true });
    expect(second.status).toBe(200);
    expect(second.body.ai_model).toMatchObject({ key: first.key, version: 2, latest: true, name: 'versioned!' });
    expect(second.body.message).toBe(m.uploaded('versioned!', 2));

    const listed = (await list(farm.regular.token, farm.companyId)).body.ai_models.filter((entry) => entry.key === first.key);
    expect(listed).toEqual([expect.objectContaining({ version: 2 })]);
    const analysed = await analyse(farm.regular.token, farm.companyId, await photo(GREEN), first.key);
    expect(analysed.body.analysis.model).toMatchObject({ version: 2, model_id: second.body.ai_model.model_id });
    expect((await fetchFile(farm.regular.token, first.model_id)).status).toBe(200);

    const pulled = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (documents) => documents.get(`ai_model:${first.model_id}`)?.latest === false);
    expect(pulled.get(`ai_model:${first.model_id}`)).toMatchObject({ version: 1, latest: false });
  });
});

describe('delete_ai_model', () => {
  it('deletes every version, returns the company’s setting to the default (audited), and the key is refused from then on', async () => {
    const first = (await upload(farm.admin.token, farm.companyId, 'Short lived')).body.ai_model;
    const second = (await upload(farm.admin.token, farm.companyId, 'Short lived')).body.ai_model;
    expect((await setModel(farm.admin.token, farm.companyId, first.key)).status).toBe(200);

    expect((await server.request('DELETE', '/delete_ai_model', { token: farm.regular.token, query: { company_id: farm.companyId, model_id: first.model_id } })).status).toBe(403);
    expect((await server.request('DELETE', '/delete_ai_model', { token: other.admin.token, query: { company_id: other.companyId, model_id: first.model_id } })).status).toBe(403);

    const response = await server.request('DELETE', '/delete_ai_model', { token: farm.admin.token, query: { company_id: farm.companyId, model_id: first.model_id } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', key: first.key, company_ai_model: SETTINGS_DEFAULTS.ai_model });
    expect([...(response.body.deleted_model_ids as number[])].sort((a, b) => a - b)).toEqual([first.model_id, second.model_id]);
    expect(await settingOf(farm.companyId)).toBe(SETTINGS_DEFAULTS.ai_model);
    expect(await auditTitles(farm.companyId)).toEqual(expect.arrayContaining(['Deleted AI model Short lived', `Set AI model to ${SETTINGS_DEFAULTS.ai_model} (Short lived was deleted)`]));

    expect((await list(farm.regular.token, farm.companyId)).body.ai_models.map((entry) => entry.key)).not.toContain(first.key);
    expect((await fetchFile(farm.regular.token, second.model_id)).status).toBe(404);
    expect((await setModel(farm.admin.token, farm.companyId, first.key)).body).toEqual({ status: 'error', message: settingsMessages.aiModelUnknown(first.key) });
    expect((await analyse(farm.regular.token, farm.companyId, await photo(GREEN), first.key)).body).toEqual({ status: 'error', message: m.unknownModel(first.key) });

    const pulled = await pullUntil<PulledDocument>(server, farm.regular.token, 'operations', (documents) => documents.get(`ai_model:${second.model_id}`)?._deleted === true);
    expect(pulled.get(`ai_model:${first.model_id}`)?._deleted).toBe(true);

    // A new upload under the name goes on counting: version 3 never meant another file.
    expect((await upload(farm.admin.token, farm.companyId, 'Short lived')).body.ai_model.version).toBe(3);
  });

  it('a SuperAdmin acting for one company does not find another company’s model there', async () => {
    const model = (await upload(other.admin.token, other.companyId, 'Theirs')).body.ai_model;
    const operator = await createSuperAdmin(server);
    const response = await server.request('DELETE', '/delete_ai_model', { token: operator.token, query: { company_id: farm.companyId, model_id: model.model_id } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ status: 'error', message: m.notFound });
  });
});

describe('set_company_ai_model and analyse_image', () => {
  it('set_company_ai_model takes the built-in keys and refuses a key that names no model of the company', async () => {
    expect((await setModel(other.admin.token, other.companyId, 'stickyTrapCounter')).status).toBe(200);
    expect((await setModel(other.admin.token, other.companyId, 'plantDiseaseRecognition')).status).toBe(200);
    const unknown = await setModel(other.admin.token, other.companyId, 'custom-colour-test');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ status: 'error', message: settingsMessages.aiModelUnknown('custom-colour-test') });
  });

  it('another company’s model key is unknown to analyse_image, and a text file is not a photo', async () => {
    const elsewhere = await analyse(other.regular.token, other.companyId, await photo(GREEN), 'custom-colour-test');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ status: 'error', message: m.unknownModel('custom-colour-test') });
    expect((await analyse(farm.regular.token, other.companyId, await photo(GREEN), 'custom-colour-test')).status).toBe(403);
    const text = await analyse(farm.regular.token, farm.companyId, new Blob(['not a photo'], { type: 'image/png' }), 'custom-colour-test');
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ status: 'error', message: fileMessages.imageType });
    const none = await server.request('POST', '/analyse_image', { token: farm.regular.token, form: { company_id: farm.companyId, ai_model: 'custom-colour-test' } });
    expect(none.body).toEqual({ status: 'error', message: fileMessages.imageRequired });
  });

  it('stickyTrapCounter runs common/vision’s counter on the photo, as the tablet does', async () => {
    const trap = syntheticTrap({ width: 1200, height: 900, seed: 17, colour: 'yellow', insects: { thrips: 12, whitefly_aphid: 6, gnat_fly: 3 } });
    const png = await sharp(Buffer.from(trap.image.data.buffer, trap.image.data.byteOffset, trap.image.data.length), { raw: { width: 1200, height: 900, channels: 4 } })
      .png()
      .toBuffer();
    const response = await analyse(farm.regular.token, farm.companyId, new Blob([new Uint8Array(png)], { type: 'image/png' }), 'stickyTrapCounter');
    expect(response.status).toBe(200);
    const { analysis } = response.body;
    expect(analysis).toMatchObject({ type: 'sticky_trap', model: { key: 'stickyTrapCounter', version: null, model_id: null } });
    if (analysis.type !== 'sticky_trap') throw new Error('not a sticky-trap analysis');
    // The same pixels (PNG is lossless, and the photo is under the working size) give the same count.
    const direct = countStickyTrap(trap.image);
    expect(analysis.result).toMatchObject({ counts: direct.counts, method: direct.method, version: direct.version });
    expect((analysis.result.trap as { colour: string } | null)?.colour).toBe('yellow');
  });

  it('plantDiseaseRecognition runs common/vision’s leaf-colour analysis: a leaf dusted white names powdery mildew first', async () => {
    // A green leaf on a dark bench with white patches on a fifth of it, as PNG.
    const width = 200;
    const height = 160;
    const pixels = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const onLeaf = (x - 100) ** 2 / 80 ** 2 + (y - 80) ** 2 / 60 ** 2 <= 1;
        const dusted = onLeaf && (x - 80) ** 2 + (y - 70) ** 2 <= 28 ** 2;
        pixels.set(dusted ? [235, 236, 230] : onLeaf ? [50, 140, 55] : [40, 30, 25], (y * width + x) * 3);
      }
    }
    const png = await sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
    const response = await analyse(farm.regular.token, farm.companyId, new Blob([new Uint8Array(png)], { type: 'image/png' }), 'plantDiseaseRecognition');
    expect(response.status).toBe(200);
    const { analysis } = response.body;
    if (analysis.type !== 'leaf_colour') throw new Error('not a leaf-colour analysis');
    const result = analysis.result as { shares: Record<string, number>; findings: Array<{ problemSlug: string | null; symptom: string | null }> };
    expect(result.shares.powdery).toBeGreaterThan(0.15);
    expect(result.shares.powdery).toBeLessThan(0.3);
    expect(result.findings[0]).toMatchObject({ symptom: 'white-powder', problemSlug: 'powdery-mildew' });
  });
});

describe('the tablet’s runtime', () => {
  it('may compile WebAssembly under the app’s content security policy (ONNX Runtime Web), and nothing else is eval’d', async () => {
    const policy = (await server.request('GET', '/health')).headers.get('content-security-policy') ?? '';
    const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    expect(scriptSources).toContain("'wasm-unsafe-eval'");
    expect(scriptSources).not.toContain("'unsafe-eval'");
  });
});
