/**
 * The command bar end to end (issue 18), in real Chromium against the real server: in a room a grower
 * types "cull boxes 1 and 2 in Bench A", sees the two actions in words, runs them with no signal, sees
 * both boxes culled at once and, back online, the server holds the culls and the command once. A command
 * the tablet cannot read gets its answer with an example. The bar on the dashboard and in the room is
 * checked with axe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { CommandsPage } from './commands-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('the command bar', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('a command typed in a room culls two boxes, offline, and reaches the server once with the command', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower 1');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bench A');

    const { page, context, errors } = await e2e.newPage();
    const app = new CommandsPage(page);
    await app.signIn(farm.regular);
    expect(await app.activeServiceWorker()).not.toBeNull();

    // On the dashboard.
    await app.open('/dashboard');
    await app.rendered('Dashboard');
    await app.bar().waitFor();
    await app.shot('command-bar-dashboard');

    await app.openRooms();
    await app.openRoom('Flower 1');
    await app.bar().waitFor();

    // A command the tablet cannot read: its answer, with an example of one it can.
    await app.read('purple monkey dishwasher');
    await app.unparsed().waitFor();
    expect(await app.unparsed().getByText(/^Try, for example: “.+”\.$/).count()).toBe(1);
    await app.shot('command-bar-unparsed');

    await app.read('cull boxes 1 and 2 in Bench A');
    await app.confirmList().waitFor();
    expect(await app.confirmList().getByRole('listitem').allInnerTexts()).toEqual(['Cull boxes 1 and 2 in Bench A']);
    await app.shot('command-bar-confirm');

    await context.setOffline(true);
    await app.run();
    const result = app.resultsList().getByRole('listitem');
    await expect.poll(() => result.allInnerTexts()).toEqual(['Cull boxes 1 and 2 in Bench A\nQueued: sent when the tablet is back online']);
    // Shown at once, offline.
    await expect.poll(() => app.culled('Bench A', 1, 1)).toBe(true);
    expect(await app.culled('Bench A', 2, 1)).toBe(true);
    expect(await app.culled('Bench A', 3, 1)).toBe(false);
    await app.shot('command-bar-run-offline');

    await context.setOffline(false);
    await app.synced();
    await expect.poll(() => result.allInnerTexts()).toEqual(['Cull boxes 1 and 2 in Bench A\nDone']);
    await app.shot('command-bar-run');

    // The server holds the two culls and the command, once, read through the API.
    const culled = await e2e.server.request<{ grid_boxes: Array<{ id: number }> }>('GET', '/get_culled_gridboxes', { token: farm.regular.token, query: { GridID: grid.id } });
    expect(culled.status).toBe(200);
    expect(culled.body.grid_boxes.map((box) => box.id).sort((a, b) => a - b)).toEqual([grid.boxIds[0], grid.boxIds[1]]);
    const kept = await e2e.server.request<{ commands: Array<Record<string, unknown>> }>('GET', '/get_commands', { token: farm.admin.token, query: { company_id: farm.companyId } });
    expect(kept.status).toBe(200);
    expect(kept.body.commands).toHaveLength(1);
    expect(kept.body.commands[0]).toMatchObject({ command: 'cull boxes 1 and 2 in Bench A', user_id: farm.regular.id, parsed: [{ kind: 'cull', culled: true, boxes: [1, 2], grid: 'Bench A' }] });
    expect(errors).toEqual([]);
  });
});
