/**
 * The pest-pressure map (issue 14) in a real Chromium against the real server: problems recorded
 * through the server's API over the last weeks (each at the time it was seen, X-Acted-At), some
 * resolved since, reach the tablet; the map circles exactly the boxes with open problems, in the
 * company's colour and abbreviation, the week slider replays the earlier state, and a problem resolved
 * from the map loses its circle at once and is resolved on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROBLEM_COLOR } from '../../common/messages/problems';
import type { PlantProblemRecord } from '../../common/schemas/problems';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createGrid, createRoom, createTenant } from '../support/factories';
import { PestPressurePage, rgb } from './pest-pressure-page';

let e2e: E2E;

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe.skipIf(skipBrowser)('the pest-pressure map in Chromium', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('circles the boxes with open problems in the company colour, replays two weeks back, and resolves a problem from the map', async () => {
    const farm = await createTenant(e2e.server);
    const roomId = await createRoom(e2e.server, farm.companyId, 'Flower room P');
    const grid = await createGrid(e2e.server, farm.companyId, roomId, 3, 2, 'Bay P');
    // Row by row: (1,1), (2,1), (3,1), (1,2), (2,2), (3,2).
    const [miteBox, mildewBox, thripsBox, secondMiteBox] = grid.boxIds as [number, number, number, number];
    const post = async <T,>(path: string, json: Record<string, unknown>, actedAt?: string, query?: Record<string, number>) => {
      const response = await e2e.server.request<T>('POST', path, { token: farm.admin.token, json, query, headers: actedAt ? { 'X-Acted-At': actedAt } : {} });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body;
    };
    const record = async (box: number, problemType: string, seen: string) =>
      (await post<{ problem: PlantProblemRecord }>('/create_gridbox_problem', { GridBoxID: box, problem_type: problemType, severity: 3, user_id: farm.admin.id }, seen)).problem;
    await post('/map_problem_color', { company_id: farm.companyId, problem: 'Two-spotted spider mite', Color: '#1565c0', Abbreviation: 'TSM' });
    await record(miteBox, 'Two-spotted spider mite', daysAgo(20));
    const mildew = await record(mildewBox, 'Powdery mildew', daysAgo(20));
    const thrips = await record(thripsBox, 'Western flower thrips', daysAgo(3));
    await record(secondMiteBox, 'two-spotted spider mite', daysAgo(2));
    // The mildew was resolved ten days ago: open two weeks ago, gone now.
    await post('/manage_problem', { problemID: mildew.problem_id, action: 'resolve', userID: farm.admin.id }, daysAgo(10));

    const { page, errors, console: messages } = await e2e.newPage();
    const app = new PestPressurePage(page);
    await app.signIn(farm.admin);
    await app.openFromRoom('Flower room P');

    // Now: the three open problems, the mite in the company's colour and abbreviation (either spelling), the others in the default colour.
    const mite = { problem: 'two-spotted spider mite', text: 'TSM 1', color: rgb('#1565c0') };
    await expect.poll(() => app.circles('Bay P', 1, 1), { timeout: 30_000 }).toEqual([mite]);
    expect(await app.circles('Bay P', 1, 2)).toEqual([mite]);
    expect(await app.circles('Bay P', 3, 1)).toEqual([{ problem: 'western flower thrips', text: expect.stringMatching(/^\S+ 1$/), color: rgb(DEFAULT_PROBLEM_COLOR) }]);
    expect(await app.circles('Bay P', 2, 1)).toEqual([]);
    expect(await app.legend()).toEqual(['two-spotted spider mite: 2', 'western flower thrips: 1']);
    // A box with problems is a button named by what it shows and the types it has.
    expect(await app.box('Bay P', 1, 1).getAttribute('type')).toBe('button');
    expect(await app.box('Bay P', 1, 1).textContent()).toContain('Two-spotted spider mite');
    await app.shot('pest-pressure-now');

    // Two weeks back: the mite on (1,1) and the mildew (resolved since); the later ones not seen yet.
    await app.showWeeksAgo(2);
    expect(await app.slider().getAttribute('aria-valuetext')).toMatch(/^2 weeks ago \(.+\)$/);
    await expect.poll(() => app.circles('Bay P', 2, 1)).toEqual([{ problem: 'powdery mildew', text: expect.stringMatching(/^\S+ 1$/), color: rgb(DEFAULT_PROBLEM_COLOR) }]);
    expect(await app.circles('Bay P', 1, 1)).toEqual([mite]);
    expect(await app.circles('Bay P', 3, 1)).toEqual([]);
    expect(await app.circles('Bay P', 1, 2)).toEqual([]);
    expect(await app.legend()).toEqual(['powdery mildew: 1', 'two-spotted spider mite: 1']);
    await app.shot('pest-pressure-two-weeks-ago');
    // Four weeks back nothing had been seen yet.
    await app.showWeeksAgo(4);
    await page.getByText('No open problems in this room 4 weeks ago').waitFor();

    // Back to now; the thrips resolved from its box's panel: its circle goes at once, and the server has it resolved.
    await page.getByRole('button', { name: 'Back to now' }).click();
    await expect.poll(() => app.circles('Bay P', 3, 1)).toHaveLength(1);
    await app.openBox('Bay P', 3, 1);
    expect(await app.panel().getByRole('heading', { level: 2 }).textContent()).toBe('Box 3');
    const item = app.panel().getByRole('listitem', { name: 'Western flower thrips' });
    await app.checkScreen('pest-pressure-box');
    await item.getByRole('button', { name: 'Resolve' }).click();
    await app.panel().getByText('No open problems on this box now.').waitFor();
    await app.panel().getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => app.circles('Bay P', 3, 1)).toEqual([]);
    expect(await app.legend()).toEqual(['two-spotted spider mite: 2']);
    await app.synced();
    const onServer = await e2e.server.database.db.selectFrom('plant_problems').select(['status', 'status_by']).where('id', '=', Number(thrips.problem_id)).executeTakeFirstOrThrow();
    expect(onServer).toEqual({ status: 'resolved', status_by: farm.admin.id });

    // From the legend: the mites in the room marked treated (still open, so still on the map).
    await page.getByRole('region', { name: 'Legend' }).getByRole('button', { name: /Two-spotted spider mite/ }).click();
    await app.panel().getByRole('region', { name: 'In this room' }).getByRole('button', { name: 'Treated' }).click();
    await app.panel().getByRole('button', { name: 'Close' }).click();
    const statuses = async () => (await e2e.server.database.db.selectFrom('plant_problems').select('status').where('room_id', '=', roomId).orderBy('id').execute()).map((row) => row.status);
    await expect.poll(statuses, { timeout: 30_000 }).toEqual(['treated', 'resolved', 'resolved', 'treated']);
    expect(await app.circles('Bay P', 1, 2)).toEqual([mite]);

    // Resolve all in the room, after a question: the map is empty, here and on the server.
    await page.getByRole('button', { name: 'Resolve all in this room' }).click();
    await page.getByRole('group', { name: 'Resolve all in this room?' }).getByRole('button', { name: 'Resolve all' }).click();
    await page.getByText('No open problems in this room', { exact: true }).waitFor();
    expect(await app.circles('Bay P', 1, 1)).toEqual([]);
    await expect.poll(statuses, { timeout: 30_000 }).toEqual(['resolved', 'resolved', 'resolved', 'resolved']);
    await app.shot('pest-pressure-empty');
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
