/**
 * Filling forms and reading observations, through the screens in a real Chromium against the real
 * server (tests/support/browser.ts): a grower fills a form for one box, for plants picked in a room
 * (the multi-select form: a range on page 1, the form on page 2), for the whole room, and offline;
 * required fields and hide-until-link rules behave on screen as the server checks them; the
 * observations screen shows the responses with their photo. Templates and rooms are set up through the
 * server (the Admin's calls, the factories).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { fileMessages } from '../../common/messages/files';
import { FormsPage } from './forms-page';

let e2e: E2E;

/** A 1×1 PNG, for the photo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface Template {
  TemplateID: number;
  TemplateName: string;
  fields: Array<{ FieldID: number; FieldName: string }>;
}

describe.skipIf(skipBrowser)('filling forms and reading observations in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  /** A scouting template with a required radio, a number, checkboxes, a field hidden until "Mites" is ticked, a photo and a position. */
  async function scoutingTemplate(farm: Tenant, templateName: string): Promise<Template> {
    const saved = await e2e.server.request<{ template: Template }>('POST', '/save_form_template', {
      token: farm.admin.token,
      json: {
        templateName,
        companyID: farm.companyId,
        formCategory: 'Scouting',
        fields: [
          { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 1 },
          { fieldName: 'Thrips count', fieldType: 'Number', fieldOptions: [], isRequired: 0 },
          { fieldName: 'Pests seen', fieldType: 'Checkbox', fieldOptions: ['Aphids', 'Thrips', 'Mites'], isRequired: 0 },
          { fieldName: 'Mite notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
          { fieldName: 'Leaf photo', fieldType: 'Image', fieldOptions: [], isRequired: 0 },
          { fieldName: 'Position', fieldType: 'Coordinates', fieldOptions: [], isRequired: 0 },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const template = saved.body.template;
    const fieldId = (name: string) => template.fields.find((field) => field.FieldName === name)!.FieldID;
    const rule = await e2e.server.request('POST', '/add_hide_field_until_link', {
      token: farm.admin.token,
      json: { form_field_hidden_FieldID: fieldId('Mite notes'), form_field_linked_FieldID: fieldId('Pests seen'), form_field_linked_input: 'Mites' },
    });
    expect(rule.status).toBe(200);
    return template;
  }

  async function signedIn(user: SignedInUser) {
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new FormsPage(page);
    await app.signIn(user);
    return { context, page, app, errors, messages };
  }

  /** The server's responses of a company, with their answers by field name and their photo count. */
  async function serverResponses(companyId: number) {
    const rows = await db().selectFrom('form_responses').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute();
    return Promise.all(
      rows.map(async (row) => {
        const answers = await db()
          .selectFrom('form_field_responses')
          .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
          .select(['form_fields.field_name', 'form_field_responses.input_data'])
          .where('form_field_responses.response_id', '=', row.id)
          // Fields that showed but were left blank are recorded as null: leave them out here.
          .where('form_field_responses.input_data', 'is not', null)
          .execute();
        const images = await db().selectFrom('form_response_images').select('id').where('response_id', '=', row.id).execute();
        return {
          gridBoxId: row.grid_box_id,
          roomId: row.room_id,
          submittedBy: row.submitted_by,
          answers: Object.fromEntries(answers.map((answer) => [answer.field_name, answer.input_data])),
          images: images.length,
        };
      }),
    );
  }

  it('a grower fills a form for one box (required field, hidden-until field, photo), for plants picked with a range, and for the whole room; observations show them with the photo', async () => {
    const farm = await createTenant(e2e.server);
    const roomName = `Flower room ${Date.now()}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench A');
    const template = await scoutingTemplate(farm, 'Weekly scouting');
    // Row by row: boxes 1–3 are the first row, box 5 is column 2 of the second.
    const [box1, box2, box3, , box5] = grid.boxIds;
    const { page, app, errors, messages } = await signedIn(farm.regular);

    // One box, from the box's panel link (boxes + room): the boxes are named, the Coordinates field records them.
    await app.openFill(template.TemplateID, template.TemplateName, { boxes: [await clientIdOf(e2e.server, 'grid_boxes', box1!)], room: roomKey });
    await expect.poll(() => page.getByRole('region', { name: 'Filled for' }).textContent(), { timeout: 30_000 }).toContain(`Bench A: box 1 in ${roomName}`);
    expect(await app.field('Position').inputValue()).toBe('Bench A: box 1');
    expect(await app.form().locator('.required-mark').count()).toBe(1);

    // The required field blocks an empty submit with the spec's message, marks the field, and queues nothing.
    await app.submit();
    await expect.poll(() => app.formError()).toBe('Pest pressure is required.');
    expect(await app.missingFields()).toEqual(['Pest pressure']);
    expect(await app.pending()).toBe('0');
    await app.check('forms-fill-error');

    // A field hidden until "Mites" is ticked shows only then.
    expect(await app.shows('Mite notes')).toBe(false);
    await app.answer('Pests seen', ['Thrips']);
    expect(await app.shows('Mite notes')).toBe(false);
    await app.answer('Pests seen', ['Mites']);
    await app.field('Mite notes').waitFor();
    await app.answer('Mite notes', 'Webbing on the lower leaves');
    await app.answer('Pest pressure', 'High');
    // Answered, the field is no longer marked and the message goes.
    expect(await app.missingFields()).toEqual([]);
    expect(await app.form().getByRole('alert').count()).toBe(0);
    await app.answer('Thrips count', '12');
    await app.attachPhoto('Leaf photo', PNG, 'leaf.png');
    await app.check('forms-fill-box');
    await app.submit();
    // Back to the room it came from.
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await app.synced();
    await expect.poll(() => serverResponses(farm.companyId), { timeout: 30_000 }).toEqual([
      {
        gridBoxId: box1,
        roomId,
        submittedBy: farm.regular.id,
        answers: {
          'Pest pressure': 'High',
          'Thrips count': '12',
          'Pests seen': 'Thrips, Mites',
          'Mite notes': 'Webbing on the lower leaves',
          'Leaf photo': 'leaf.png',
          Position: 'Bench A: box 1',
        },
        images: 1,
      },
    ]);

    // Several boxes from the room: "Fill a form" lists the company's forms; "Pick plants" is the multi-select form.
    await page.getByRole('button', { name: 'Fill a form' }).click();
    await page.getByRole('list', { name: 'Forms to fill' }).getByRole('link', { name: /^Weekly scouting/ }).click();
    await app.rendered(template.TemplateName);
    expect(new URL(page.url()).searchParams.get('room')).toBe(roomKey);
    await app.check('forms-fill-choice');
    await app.choosePickPlants();
    // A range from box 1 to box 3 (the first row, numbered row by row), then box 5 tapped on its own.
    await app.selectRange('Bench A', [1, 1], [3, 1]);
    await app.tapBox('Bench A', 2, 2);
    expect(await app.chosenCount()).toBe(4);
    // Tapped again, a box is taken off; and on again.
    await app.tapBox('Bench A', 2, 2);
    expect(await app.chosenCount()).toBe(3);
    await app.tapBox('Bench A', 2, 2);
    expect(await app.chosenCount()).toBe(4);
    await app.check('forms-multiselect-page1');
    await app.next();
    expect(await app.field('Position').inputValue()).toBe('Bench A: boxes 1, 2, 3, 5');
    await app.answer('Pest pressure', 'Low');
    await app.check('forms-multiselect-page2');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await app.synced();
    const multi = async () => (await serverResponses(farm.companyId)).filter((response) => response.answers['Pest pressure'] === 'Low');
    await expect.poll(async () => (await multi()).map((response) => response.gridBoxId).sort((a, b) => a! - b!), { timeout: 30_000 }).toEqual([box1, box2, box3, box5]);
    for (const response of await multi()) expect(response).toMatchObject({ roomId, answers: { Position: 'Bench A: boxes 1, 2, 3, 5', 'Pest pressure': 'Low' } });
    const audit = await db().selectFrom('audit_events').select('event_title').where('company_id', '=', farm.companyId).where('event_title', 'like', 'Submitted MultiSelect%').execute();
    expect(audit).toEqual([{ event_title: `Submitted MultiSelect Template in room ${roomName}` }]);

    // Rows and columns pick whole lines, and taking one off takes its boxes off.
    await app.openFill(template.TemplateID, template.TemplateName, { room: roomKey });
    await app.choosePickPlants();
    await app.toggleLine('Bench A', 'Rows', 2);
    expect(await app.chosenCount()).toBe(3);
    await app.toggleLine('Bench A', 'Columns', 1);
    expect(await app.chosenCount()).toBe(4);
    await app.toggleLine('Bench A', 'Rows', 2);
    expect(await app.chosenCount()).toBe(1);
    expect(await app.pickerBox('Bench A', 1, 1).getAttribute('aria-pressed')).toBe('true');

    // The whole room: one response with the room and no box.
    await app.openFill(template.TemplateID, template.TemplateName, { room: roomKey });
    await app.chooseWholeRoom();
    await app.answer('Pest pressure', 'High');
    await app.answer('Position', 'North wall');
    await app.check('forms-fill-room');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await app.synced();
    await expect
      .poll(async () => (await serverResponses(farm.companyId)).filter((response) => response.gridBoxId === null), { timeout: 30_000 })
      .toEqual([{ gridBoxId: null, roomId, submittedBy: farm.regular.id, answers: { 'Pest pressure': 'High', Position: 'North wall' }, images: 0 }]);

    // Observations: per box, with the photo (fetched from the server once synced) and who filled it; the room's own apart.
    await app.openObservations();
    await page.getByLabel('Room', { exact: true }).selectOption({ label: roomName });
    // The first grid is chosen by default.
    await expect.poll(() => page.getByLabel('Grid', { exact: true }).locator('option:checked').textContent()).toBe('Bench A');
    await expect.poll(() => page.locator('.observation-summary').textContent(), { timeout: 30_000 }).toBe('Bench A: 5 responses in 4 boxes · 1 for the whole room');
    const first = app.observationBox(1);
    expect(await first.locator('.response').count()).toBe(2);
    await expect.poll(() => first.getByRole('img', { name: 'Photo: Leaf photo' }).evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), { timeout: 30_000 }).toBe(1);
    const boxOneText = await first.textContent();
    expect(boxOneText).toContain('Webbing on the lower leaves');
    expect(boxOneText).toContain('Thrips, Mites');
    expect(boxOneText).toContain('Regular');
    expect(await app.observationBox(5).locator('.response').count()).toBe(1);
    expect(await app.observationBox(4).count()).toBe(0);
    expect(await app.wholeRoom().textContent()).toContain('North wall');
    await app.check('forms-observations');
    await page.setViewportSize({ width: 1280, height: 800 });
    await app.check('forms-observations-1280x800');

    // Older days than the tablet holds: it says so and loads them from the server.
    await app.openObservations({ room: roomKey, start: '2020-01-01', end: '2020-01-31' });
    await page.getByText('older responses may be missing').waitFor();
    await page.getByRole('button', { name: 'Load from server' }).click();
    await page.getByText('Loaded 0 responses of this grid from the server.').waitFor();
    await app.check('forms-observations-older');

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('offline, a grower fills a form from a box panel: it is saved on the tablet, shows in observations with its photo pending, and reaches the server when the connection returns', async () => {
    const farm = await createTenant(e2e.server);
    const roomName = `Veg room ${Date.now()}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 2, 'Rack 1');
    const template = await scoutingTemplate(farm, 'Quick check');
    const { context, page, app } = await signedIn(farm.regular);
    // The template arrives with the first pull; the service worker must control the page before the signal goes.
    await app.openFill(template.TemplateID, template.TemplateName);
    await app.open(`/dashboard/rooms/${roomKey}`);
    await app.rendered(roomName, 30_000);
    expect(await app.activeServiceWorker()).not.toBeNull();
    await page.locator('.grid-box[data-x="2"][data-y="1"]').waitFor({ timeout: 30_000 });

    await context.setOffline(true);
    await page.locator('.grid-box[data-x="2"][data-y="1"]').click();
    const panel = page.locator('.box-panel');
    await panel.getByRole('button', { name: 'Fill a form' }).click();
    await panel.getByRole('link', { name: /^Quick check/ }).click();
    await app.rendered(template.TemplateName);
    await app.answer('Pest pressure', 'High');
    await app.attachPhoto('Leaf photo', PNG, 'offline-leaf.png');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await expect.poll(async () => (await app.toasts()).join(' ')).toContain('Saved on this tablet; it will be sent when the connection returns.');
    expect(Number(await app.pending())).toBeGreaterThan(0);

    await app.openObservationsFromMenu();
    // The company's one room is chosen already.
    await expect.poll(() => page.getByLabel('Room', { exact: true }).inputValue()).toBe(roomKey);
    const box = app.observationBox(2);
    await box.getByText('Photo waiting to upload').waitFor();
    await box.getByText('Waiting to sync').waitFor();
    expect(await box.textContent()).toContain('High');
    await app.check('forms-observations-offline');

    await context.setOffline(false);
    await app.synced();
    await expect.poll(() => serverResponses(farm.companyId), { timeout: 30_000 }).toEqual([
      { gridBoxId: grid.boxIds[1], roomId, submittedBy: farm.regular.id, answers: { 'Pest pressure': 'High', 'Leaf photo': 'offline-leaf.png', Position: 'Rack 1: box 2' }, images: 1 },
    ]);
    // Once the pull brings the server's copy, the photo shows instead of the pending note.
    await box.getByRole('img', { name: 'Photo: Leaf photo' }).waitFor({ timeout: 30_000 });
    expect(await box.getByText('Waiting to sync').count()).toBe(0);
  });

  it('a sticky-trap count filled for a box marks that box on the room grid', async () => {
    const farm = await createTenant(e2e.server);
    const roomName = `Mother room ${Date.now()}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Rack T');
    const saved = await e2e.server.request<{ template: Template }>('POST', '/save_form_template', {
      token: farm.admin.token,
      json: { templateName: 'Trap count', companyID: farm.companyId, formCategory: 'Sticky Trap', fields: [{ fieldName: 'Thrips', fieldType: 'Number', fieldOptions: [], isRequired: 1 }] },
    });
    expect(saved.status).toBe(200);
    const { page, app, errors, messages } = await signedIn(farm.regular);
    await app.open(`/dashboard/rooms/${roomKey}`);
    await app.rendered(roomName, 30_000);
    const trapBox = page.locator('.grid-box[data-x="1"][data-y="1"]');
    await trapBox.waitFor({ timeout: 30_000 });
    expect(await page.locator('.box-trap').count()).toBe(0);
    await trapBox.click();
    const panel = page.locator('.box-panel');
    await panel.getByRole('button', { name: 'Fill a form' }).click();
    await panel.getByRole('link', { name: /^Trap count/ }).click({ timeout: 30_000 });
    await app.rendered('Trap count');
    await app.answer('Thrips', '14');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await expect.poll(() => trapBox.getAttribute('aria-label')).toContain('sticky trap read');
    expect(await page.locator('.grid-box[data-x="2"][data-y="1"] .box-trap').count()).toBe(0);
    await app.synced();
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a photo is made fit before it is kept: something that is no picture is refused at once, a large picture is sent as a smaller JPEG', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, `Photo room ${Date.now()}`);
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 1, 1, 'Rack P');
    const template = await scoutingTemplate(farm, 'Photo check');
    const { page, app, errors, messages } = await signedIn(farm.regular);
    await app.openFill(template.TemplateID, template.TemplateName, { boxes: [await clientIdOf(e2e.server, 'grid_boxes', grid.boxIds[0]!)] });
    await app.answer('Pest pressure', 'Low');

    await app.field('Leaf photo').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await expect.poll(() => app.form().getByRole('alert').textContent()).toBe(fileMessages.imageType);
    await app.check('forms-fill-photo-error');

    // A 4000 × 3000 camera picture.
    const picture = await page.evaluate(async () => {
      const canvas = new OffscreenCanvas(4000, 3000);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#3a7';
      context.fillRect(0, 0, 4000, 3000);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    });
    await app.attachPhoto('Leaf photo', Buffer.from(picture), 'camera.png');
    await app.submit();
    // Submitted, the screen goes back to the box's room.
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await app.synced();
    const stored = () =>
      db()
        .selectFrom('form_response_images')
        .innerJoin('files', 'files.id', 'form_response_images.file_id')
        .innerJoin('form_responses', 'form_responses.id', 'form_response_images.response_id')
        .select(['files.content_type'])
        .where('form_responses.grid_box_id', '=', grid.boxIds[0]!)
        .execute();
    await expect.poll(stored, { timeout: 30_000 }).toEqual([{ content_type: 'image/jpeg' }]);
    const answer = await db()
      .selectFrom('form_field_responses')
      .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
      .select('input_data')
      .where('form_fields.field_name', '=', 'Leaf photo')
      .where('form_fields.template_id', '=', template.TemplateID as number)
      .executeTakeFirstOrThrow();
    expect(answer.input_data).toBe('camera.jpg');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
