/**
 * Forms end to end, as issue 6 asks: an Admin builds a template with a required field and a field
 * hidden until another is answered; on another tablet with no signal a grower fills it for three
 * plants at once (multi-select) with a photo and for the whole room, and an empty submit is blocked by
 * the required field; back online, the server has the four responses, the photo and the multi-select
 * audit event, each once. Real Chromium, the real server, nothing mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { FormBuilderPage } from './form-builder-page';
import { FormsPage } from './forms-page';

let e2e: E2E;

/** A 1×1 PNG, as a tablet camera's file would be checked by its bytes. */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.skipIf(skipBrowser)('forms offline', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a template built by an Admin is filled offline for three plants with a photo and for a room, and reaches the server once', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room 3');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench F');
    const db = e2e.server.database.db;

    // The Admin builds the form.
    const admin = await e2e.newPage();
    const builder = new FormBuilderPage(admin.page);
    await builder.signIn(farm.admin);
    await builder.openList();
    await builder.newForm();
    await builder.nameForm('Mite check', 'Scouting');
    await builder.addField({ name: 'Mites seen', type: 'Radio', options: ['Yes', 'No'], required: true });
    await builder.addField({ name: 'Mite count', type: 'Number', showWhen: { field: 'Mites seen', answer: 'Yes' } });
    await builder.addField({ name: 'Leaf photo', type: 'Image' });
    await builder.save();
    await builder.synced();
    const template = await db.selectFrom('form_templates').select('id').where('company_id', '=', farm.companyId).where('template_name', '=', 'Mite check').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
    const fields = await db.selectFrom('form_fields').select(['id', 'field_name', 'is_required']).where('template_id', '=', template.id).orderBy('position').execute();
    expect(fields.map((field) => [field.field_name, field.is_required])).toEqual([
      ['Mites seen', 1],
      ['Mite count', 0],
      ['Leaf photo', 0],
    ]);
    const fieldId = (name: string) => fields.find((field) => field.field_name === name)!.id;
    expect(await db.selectFrom('form_field_hide_rules').select(['hidden_field_id', 'linked_field_id', 'linked_input']).where('template_id', '=', template.id).where('deleted_at', 'is', null).execute()).toEqual([
      { hidden_field_id: fieldId('Mite count'), linked_field_id: fieldId('Mites seen'), linked_input: 'Yes' },
    ]);

    // A grower's tablet gets the form while it has signal, then loses it.
    const grower = await e2e.newPage();
    const forms = new FormsPage(grower.page);
    await forms.signIn(farm.regular);
    await forms.openFill(template.id, 'Mite check', { room: roomId });
    await forms.synced();
    expect(await forms.activeServiceWorker()).not.toBeNull();
    await forms.reload();
    await forms.rendered('Mite check');
    await grower.context.setOffline(true);

    // Three plants at once (the multi-select form), with a photo; the required field blocks an empty submit.
    await forms.openFill(template.id, 'Mite check', { room: roomId });
    await forms.choosePickPlants();
    await forms.selectRange('Bench F', [1, 1], [3, 1]);
    expect(await forms.chosenCount()).toBe(3);
    await forms.next();
    expect(await forms.shows('Mite count')).toBe(false);
    await forms.submit();
    await expect.poll(() => forms.formError()).toBe('Mites seen is required.');
    expect(await forms.pending()).toBe('0');
    await forms.answer('Mites seen', 'Yes');
    await expect.poll(() => forms.shows('Mite count')).toBe(true);
    await forms.answer('Mite count', '7');
    await forms.attachPhoto('Leaf photo', PHOTO, 'leaf.png');
    await forms.check('forms-offline-multiselect');
    await forms.submit();
    await expect.poll(() => forms.pending()).toBe('2');

    // The whole room.
    await forms.openFill(template.id, 'Mite check', { room: roomId });
    await forms.chooseWholeRoom();
    await forms.answer('Mites seen', 'No');
    await forms.submit();
    await expect.poll(() => forms.pending()).toBe('3');
    expect(await db.selectFrom('form_responses').select('id').where('company_id', '=', farm.companyId).execute()).toEqual([]);

    // Back online: each reaches the server once.
    await grower.context.setOffline(false);
    await forms.synced();
    const responses = await db.selectFrom('form_responses').select(['id', 'grid_box_id', 'room_id', 'submitted_by']).where('company_id', '=', farm.companyId).orderBy('id').execute();
    expect(responses.map((response) => [response.grid_box_id, response.room_id, response.submitted_by])).toEqual([
      [grid.boxIds[0], roomId, farm.regular.id],
      [grid.boxIds[1], roomId, farm.regular.id],
      [grid.boxIds[2], roomId, farm.regular.id],
      [null, roomId, farm.regular.id],
    ]);
    const answers = await db.selectFrom('form_field_responses').select(['response_id', 'field_id', 'input_data']).where('company_id', '=', farm.companyId).execute();
    const answerOf = (responseId: number, field: string) => answers.find((answer) => answer.response_id === responseId && answer.field_id === fieldId(field))?.input_data ?? null;
    for (const response of responses.slice(0, 3)) expect([answerOf(response.id, 'Mites seen'), answerOf(response.id, 'Mite count')]).toEqual(['Yes', '7']);
    expect([answerOf(responses[3]!.id, 'Mites seen'), answerOf(responses[3]!.id, 'Mite count')]).toEqual(['No', null]);
    const images = await db.selectFrom('form_response_images').select(['response_id', 'field_id']).where('company_id', '=', farm.companyId).execute();
    expect(images).toEqual([{ response_id: responses[0]!.id, field_id: fieldId('Leaf photo') }]);
    const events = await db.selectFrom('audit_events').select('event_title').where('company_id', '=', farm.companyId).where('event_title', 'like', 'Submitted MultiSelect Template%').execute();
    expect(events).toEqual([{ event_title: 'Submitted MultiSelect Template in room Flower room 3' }]);
    expect(admin.errors, admin.console.join('\n')).toEqual([]);
    expect(grower.errors, grower.console.join('\n')).toEqual([]);
  });
});
