/**
 * Form figures for `npm run bench`: a day of scouting on a tablet with no signal — 1,000 form responses
 * (one in ten with a photo) recorded offline, then the outbox replayed against the real server. The
 * engine runs in Node as in the sync tests (RxDB memory storage, the outbox on fake-indexeddb).
 */
import 'fake-indexeddb/auto';
import { boxClientId } from '../common/client-ids';
import { submitForm } from '../src/api/form-responses';
import type { FormTemplateRecord } from '../common/schemas/forms';
import { withLinkKeys } from '../src/db/schemas';
import { startTablet } from '../tests/support/client';
import { againstGoal, type Call, type SignedIn, tabletUser, until } from './sync';

const RESPONSES = Number(process.env.BENCH_FORM_RESPONSES ?? 1_000);
const PHOTO_EVERY = 10;
/** A small real PNG (1×1), as a tablet camera's file would be checked by its bytes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export async function measureFormResponses(base: string, session: SignedIn, call: Call, report: (line: string) => void): Promise<void> {
  const user = tabletUser(session);
  const room = await call<{ RoomID: number }>('POST', '/create_room', { company_id: session.company_id }, { name: 'Forms bench', description: 'npm run bench' });
  const grid = await call<{ client_id: string; grid: { id: number; boxes: Array<{ X: number; Y: number }> } }>('POST', '/Create_grid', {}, { ncompany_id: session.company_id, nroom_id: room.RoomID, ngrid_name: 'Scouting', nx: 10, ny: 10 });
  // Named as a tablet names them (its local documents' keys): by client id, resolved by the server.
  const boxIds = grid.grid.boxes.map((box) => boxClientId(grid.client_id, box.X, box.Y));
  const saved = await call<{ client_id: string }>('POST', '/save_form_template', {}, {
    templateName: 'Bench scouting',
    companyID: session.company_id,
    fields: [
      { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['None', 'Low', 'High'], isRequired: 1 },
      { fieldName: 'Thrips', fieldType: 'Number', fieldOptions: [] },
      { fieldName: 'Photo', fieldType: 'Image', fieldOptions: [] },
      { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [] },
    ],
  });
  // The tablet holds the template as its pull would have left it (named by client ids), and never reaches the server until replay.
  const pulled = await call<{ documents: Array<FormTemplateRecord & { id: string }> }>('GET', '/sync/documents', { collection: 'form_templates', ids: saved.client_id, naming: 'client' });
  const template = pulled.documents[0]!;
  const [pressure, thrips, photo, notes] = template.fields.map((field) => field.FieldID);
  const tablet = await startTablet(base, user, { start: false });
  await tablet.database.form_templates.upsert(withLinkKeys('form_templates', { ...template }));
  const recordStart = performance.now();
  for (let index = 0; index < RESPONSES; index += 1) {
    await submitForm(tablet.context, {
      submittedBy: session.user_id,
      gridBoxId: boxIds[index % boxIds.length]!,
      fieldResponses: [
        { fieldId: pressure!, inputData: ['None', 'Low', 'High'][index % 3]! },
        { fieldId: thrips!, inputData: String(index % 17) },
        { fieldId: notes!, inputData: `Walk ${index}` },
      ],
      photos: index % PHOTO_EVERY === 0 ? [{ fieldId: photo!, image: new Blob([PNG], { type: 'image/png' }), fileName: `box-${index}.png` }] : [],
    });
  }
  const entries = await tablet.outbox.count();
  report(`recording ${RESPONSES.toLocaleString('en')} form responses offline (${entries.toLocaleString('en')} outbox entries with the photos): ${((performance.now() - recordStart) / 1000).toFixed(1)} s`);

  const replayStart = performance.now();
  await tablet.engine.start();
  await until(async () => (await tablet.outbox.count()) === 0, 900_000, 100);
  const replaySeconds = (performance.now() - replayStart) / 1000;
  await tablet.close();
  const onServer = await call<{ all_responses: unknown[] }>('GET', '/get_responses_for_grid2', { GridID: grid.grid.id, start_date: '2000-01-01', end_date: '2100-01-01' });
  const counted = onServer.all_responses.length;
  if (counted !== RESPONSES) throw new Error(`expected ${RESPONSES} responses on the server, found ${counted}`);
  report(`replay of ${RESPONSES.toLocaleString('en')} form responses (${entries.toLocaleString('en')} entries): ${replaySeconds.toFixed(1)} s, ${againstGoal(Math.round(RESPONSES / replaySeconds), 100, 'responses/s', 'at least')}; the server holds ${counted.toLocaleString('en')}`);
}

