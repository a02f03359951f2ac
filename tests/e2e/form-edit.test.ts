/**
 * Correcting a submitted form response (issue 18, rooms/FormEdit) in a real Chromium against the real
 * server: a grower fills a form for a box, loses the signal, corrects the count from Observations with
 * a reason (a correction without one is refused on the spot), and sees the corrected value beside the
 * one submitted, on the correction screen and in Observations; back online, the server holds the
 * correction once, with the original value and its audit event. Each screen is checked (screenshot, axe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formResponseMessages as m } from '../../common/messages/form-responses';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant } from '../support/factories';
import { FormEditPage } from './form-edit-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('correcting a form response', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('a count corrected offline with a reason shows at once beside the original, and reaches the server once', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Veg room 2');
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench C');
    const saved = await e2e.server.request<{ template_id: number }>('POST', '/save_form_template', {
      token: farm.admin.token,
      json: {
        templateName: 'Mite count',
        companyID: farm.companyId,
        formCategory: 'Scouting',
        fields: [
          { fieldName: 'Mites counted', fieldType: 'Number', fieldOptions: [], isRequired: 1 },
          { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const templateId = saved.body.template_id;

    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new FormEditPage(page);
    await app.signIn(farm.regular);

    // The grower fills the form for box 1, with signal.
    await app.openFill(templateId, 'Mite count', { boxes: [await clientIdOf(e2e.server, 'grid_boxes', grid.boxIds[0]!)], room: roomKey });
    await app.answer('Mites counted', '12');
    await app.answer('Notes', 'Lower leaves');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);
    await app.synced();
    const response = await db().selectFrom('form_responses').select('id').where('company_id', '=', farm.companyId).executeTakeFirstOrThrow();

    // The app is saved on the tablet; then the signal goes.
    await app.openObservations();
    expect(await app.activeServiceWorker()).not.toBeNull();
    await app.reload();
    await app.rendered('Observations');
    await context.setOffline(true);

    await app.openObservationsFromMenu();
    expect(await app.observedAnswer(1, 'Mites counted')).toBe('12');
    await app.openCorrection(1);
    expect(await app.correctionField('Mites counted').inputValue()).toBe('12');
    expect(await app.corrections()).toEqual([]);

    // No reason, no correction: said at once, nothing queued.
    await app.correct('Mites counted', '21');
    await app.saveCorrection();
    await expect.poll(() => app.correctionError()).toBe(m.correctionReasonRequired);
    expect(await app.pending()).toBe('0');

    await app.giveReason('Counted the wrong row');
    await app.saveCorrection();
    await app.savedNote().waitFor();
    await expect.poll(() => app.pending()).toBe('1');
    expect(await app.correctionField('Mites counted').inputValue()).toBe('21');
    expect(await app.originals()).toEqual(['Mites counted: 12 (now 21)']);
    const [waiting] = await app.corrections();
    expect(waiting).toContain('Mites counted: from 12 to 21');
    expect(waiting).toContain('Reason: Counted the wrong row');
    expect(waiting).toContain('Waiting to sync');
    await app.check('form-edit-offline');

    // Observations show the corrected count and what was submitted.
    await app.backToObservations();
    expect(await app.observedAnswer(1, 'Mites counted')).toBe('21 (submitted as 12)');
    expect(await app.observedTags(1)).toContain('Corrected');
    await app.check('form-edit-observations-offline');
    expect(await db().selectFrom('form_corrections').select('id').where('company_id', '=', farm.companyId).execute()).toEqual([]);

    // Back online: the server has the correction once, keeping the original, and its audit event.
    await context.setOffline(false);
    await app.synced();
    const corrections = await db().selectFrom('form_corrections').select(['id', 'response_id', 'reason', 'created_by']).where('company_id', '=', farm.companyId).execute();
    expect(corrections).toEqual([{ id: expect.any(Number), response_id: response.id, reason: 'Counted the wrong row', created_by: farm.regular.id }]);
    const values = await db().selectFrom('form_correction_values').select(['previous_value', 'corrected_value']).where('correction_id', '=', corrections[0]!.id).execute();
    expect(values).toEqual([{ previous_value: '12', corrected_value: '21' }]);
    const answers = await db()
      .selectFrom('form_field_responses')
      .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
      .select(['form_fields.field_name', 'form_field_responses.input_data'])
      .where('form_field_responses.response_id', '=', response.id)
      .orderBy('form_fields.position')
      .execute();
    expect(answers).toEqual([
      { field_name: 'Mites counted', input_data: '21' },
      { field_name: 'Notes', input_data: 'Lower leaves' },
    ]);
    const events = await db().selectFrom('audit_events').select(['event_title', 'user_id']).where('response_id', '=', response.id).where('event_title', 'like', 'Corrected %').execute();
    expect(events).toEqual([{ event_title: `Corrected Mite count response ${response.id}: Mites counted from "12" to "21". Reason: Counted the wrong row`, user_id: farm.regular.id }]);

    // The server's copy replaces the tablet's: the correction is no longer waiting, and still shows the original.
    await app.openCorrection(1);
    await expect.poll(async () => (await app.corrections()).join('\n'), { timeout: 30_000 }).not.toContain('Waiting to sync');
    expect(await app.corrections()).toHaveLength(1);
    expect(await app.originals()).toEqual(['Mites counted: 12 (now 21)']);
    await app.check('form-edit-synced');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
