/**
 * A scouting form's Problem field in a real Chromium against the real server (issue 14: a form answer
 * that names a problem records it on the box): offline, a grower picks a catalogue problem by searching
 * and types the company's own, each with a severity on large buttons; submitted, the problems show at
 * once in the box's panel as waiting to sync, and reach the server once the connection returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueProblemNamed } from '../../common/plant-problems';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant } from '../support/factories';
import { FormsPage } from './forms-page';

let e2e: E2E;

const MITE = catalogueProblemNamed('Two-spotted spider mite')!;
const OWN = 'Purple stem streaks';

describe.skipIf(skipBrowser)('a Problem field in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('offline, a grower names a catalogue problem and the company’s own with their severities; the box shows them at once and the server gets them once', async () => {
    const farm = await createTenant(e2e.server);
    const roomName = `Problem room ${Date.now()}`;
    const roomId = await createRoom(e2e.server, farm.companyId, roomName);
    const roomKey = await clientIdOf(e2e.server, 'rooms', roomId);
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 2, 1, 'Bench Q');
    const saved = await e2e.server.request<{ template: { TemplateID: number; TemplateName: string } }>('POST', '/save_form_template', {
      token: farm.admin.token,
      json: {
        templateName: 'Problem walk',
        companyID: farm.companyId,
        formCategory: 'Scouting',
        fields: [
          { fieldName: 'Pests', fieldType: 'Problem', isRequired: 1 },
          { fieldName: 'Notes', fieldType: 'Text' },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const template = saved.body.template;
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new FormsPage(page);
    await app.signIn(farm.regular);
    // The template arrives with the first pull; the service worker must control the page before the signal goes.
    await app.openFill(template.TemplateID, template.TemplateName);
    await app.open(`/dashboard/rooms/${roomKey}`);
    await app.rendered(roomName, 30_000);
    expect(await app.activeServiceWorker()).not.toBeNull();
    const box = page.locator('.grid-box[data-x="1"][data-y="1"]');
    await box.waitFor({ timeout: 30_000 });

    await context.setOffline(true);
    await box.click();
    const panel = page.locator('.box-panel');
    await panel.getByRole('button', { name: 'Fill a form' }).click();
    await panel.getByRole('link', { name: /^Problem walk/ }).click();
    await app.rendered(template.TemplateName);

    // Required: an empty answer blocks the submit and marks the field.
    await app.submit();
    await expect.poll(() => app.formError()).toBe('Pests is required.');
    expect(await app.missingFields()).toEqual(['Pests']);

    // A catalogue problem, found by searching (the catalogue is in the app: offline too), then its severity.
    const form = app.form();
    await app.field('Pests').fill('spider');
    await form.getByRole('list', { name: 'Problems to add' }).getByRole('button', { name: new RegExp(`^${MITE.name}`) }).click();
    await form.getByRole('group', { name: `Add ${MITE.name}` }).getByRole('button', { name: `Severity 3 of 5: ${MITE.name}` }).click();
    // The company's own, typed.
    await app.field('Pests').fill(OWN);
    await form.getByRole('button', { name: `Add “${OWN}” as your company’s own problem` }).click();
    await form.getByRole('button', { name: `Severity 1 of 5: ${OWN}` }).click();
    // The severity of one named already changes in place.
    const seen = form.getByRole('list', { name: 'Problems seen: Pests' });
    await seen.getByRole('button', { name: `Severity 4 of 5: ${MITE.name}` }).click();
    expect(await seen.getByRole('button', { name: `Severity 4 of 5: ${MITE.name}` }).getAttribute('aria-pressed')).toBe('true');
    expect(await seen.getByRole('listitem').allTextContents()).toEqual([expect.stringContaining(MITE.name), expect.stringContaining(OWN)]);
    expect(await app.missingFields()).toEqual([]);
    await app.checkScreen('forms-fill-problems');
    await app.submit();
    await page.waitForURL((url) => url.pathname === `/dashboard/rooms/${roomKey}`);

    // At once, offline: the box's panel lists them as open and waiting to sync.
    await box.click();
    const open = panel.getByRole('list', { name: 'Open problems' });
    const mite = open.getByRole('listitem', { name: `${MITE.name}, severity 4` });
    const own = open.getByRole('listitem', { name: `${OWN}, severity 1` });
    await mite.waitFor({ timeout: 30_000 });
    await own.waitFor();
    expect(await mite.getByText('Waiting to sync').isVisible()).toBe(true);
    const rows = () =>
      db().selectFrom('plant_problems').select(['grid_box_id', 'problem_type', 'problem_slug', 'severity', 'source', 'user_id', 'status']).where('company_id', '=', farm.companyId).orderBy('id').execute();
    expect(await rows()).toEqual([]);

    // Back online: the server records each once, and the panel shows the server's copies.
    await context.setOffline(false);
    await app.synced();
    await expect.poll(rows, { timeout: 30_000 }).toEqual([
      { grid_box_id: grid.boxIds[0], problem_type: MITE.name, problem_slug: MITE.slug, severity: 4, source: 'form', user_id: farm.regular.id, status: 'unresolved' },
      { grid_box_id: grid.boxIds[0], problem_type: OWN, problem_slug: null, severity: 1, source: 'form', user_id: farm.regular.id, status: 'unresolved' },
    ]);
    const answer = await db().selectFrom('form_field_responses').innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id').select('input_data').where('form_fields.field_name', '=', 'Pests').where('form_field_responses.company_id', '=', farm.companyId).execute();
    expect(answer).toEqual([{ input_data: `${MITE.name} (4), ${OWN} (1)` }]);
    await expect.poll(() => open.getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
