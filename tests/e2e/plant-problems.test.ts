/**
 * The plant problem catalogue and a problem's page in a real Chromium against the real server: search
 * and filters narrow the catalogue; a problem's page shows where it is open now in the company's rooms
 * (from the tablet's store), follows a look-alike, adds the company's own solution and, for an Admin,
 * sets its colour on the pest-pressure map; offline the catalogue still searches, a problem's page still
 * shows its content, and a solution added offline shows at once and reaches the server once online.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../common/plant-problems';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { clientIdOf, createGrid, createRoom, createTenant } from '../support/factories';
import { PlantProblemsPage } from './plant-problems-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('the plant problem catalogue in Chromium', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  const db = () => e2e.server.database.db;

  it('searches, filters, opens a problem and its look-alike, adds a solution, sets its colour, and works offline', async () => {
    const farm = await createTenant(e2e.server);
    const flowerRoom = await createRoom(e2e.server, farm.companyId, 'Flower room');
    const vegRoom = await createRoom(e2e.server, farm.companyId, 'Veg room');
    const flower = await createGrid(e2e.server, farm.companyId, flowerRoom, 2, 1, 'Bench F');
    const veg = await createGrid(e2e.server, farm.companyId, vegRoom, 1, 1, 'Bench V');
    const record = async (box: number, problemType: string) => {
      const response = await e2e.server.request<{ problem_id: number }>('POST', '/create_gridbox_problem', {
        token: farm.regular.token,
        json: { GridBoxID: box, problem_type: problemType, severity: 3, user_id: farm.regular.id },
      });
      expect(response.status).toBe(200);
      return response.body.problem_id;
    };
    // Spider mites: two open in the flower room, one open and one resolved in the veg room; thrips elsewhere.
    await record(flower.boxIds[0]!, 'Two-spotted spider mite');
    await record(flower.boxIds[1]!, 'Two-spotted spider mite');
    await record(veg.boxIds[0]!, 'Two-spotted spider mite');
    const resolved = await record(veg.boxIds[0]!, 'Two-spotted spider mite');
    const manage = await e2e.server.request('POST', '/manage_problem', { token: farm.regular.token, json: { problemID: resolved, action: 'resolve', userID: farm.regular.id } });
    expect(manage.status).toBe(200);
    await record(veg.boxIds[0]!, 'Western flower thrips');

    const { context, page, errors } = await e2e.newPage();
    const app = new PlantProblemsPage(page);
    await app.signIn(farm.admin);
    await app.openCatalogue();
    expect(await app.count()).toBe(`All ${CATALOGUE.length} problems`);
    await app.check('plant-problems');

    // Search as you type.
    await app.search('spider');
    await expect.poll(() => app.resultNames()).toContain('Two-spotted spider mite');
    expect((await app.resultNames())[0]).toBe('Two-spotted spider mite');
    await app.search('zzzz');
    await page.getByText('No plant problem matches this search and these filters.', { exact: false }).waitFor();
    await app.clearFilters();
    await expect.poll(() => app.count()).toBe(`All ${CATALOGUE.length} problems`);

    // Leaves, then a symptom of the leaves: each narrows the list.
    await app.select('Symptom group', 'Leaves');
    const leaves = CATALOGUE.filter((problem) => problem.symptom_groups.includes('leaves'));
    await expect.poll(() => app.count()).toBe(`${leaves.length} of ${CATALOGUE.length} problems`);
    await app.select('Symptom', 'Fine pale stippling on the upper leaf surface');
    const stippling = CATALOGUE.filter((problem) => problem.symptoms.includes('stippling'));
    expect(stippling.length).toBeLessThan(leaves.length);
    await expect.poll(() => app.count()).toBe(`${stippling.length} of ${CATALOGUE.length} problems`);
    expect(await app.resultNames()).toContain('Two-spotted spider mite');
    // A colour and a kind narrow it further.
    await app.choose('Kind', 'Pests');
    await app.choose('Colour', 'Bronze');
    const narrowed = stippling.filter((problem) => problem.kind === 'pest' && problem.color_symptoms.includes('bronze'));
    await expect.poll(() => app.count()).toBe(`${narrowed.length} of ${CATALOGUE.length} problems`);
    expect(await app.resultNames()).toContain('Two-spotted spider mite');
    await app.check('plant-problems-filtered');

    // The problem's page: where it is open now, by room, most first, each to its pest-pressure map.
    await app.openProblem('Two-spotted spider mite');
    await app.page.getByText('Tetranychus urticae').first().waitFor();
    await expect.poll(() => app.whereTexts(), { timeout: 30_000 }).toEqual(['Flower room 2 open', 'Veg room 1 open']);
    expect(await app.whereRooms().first().getAttribute('href')).toBe(`/dashboard/rooms/unresolvedRoom/${await clientIdOf(e2e.server, 'rooms', flowerRoom)}`);
    await app.section('Solutions').getByRole('group', { name: 'Biological solutions' }).getByText('Phytoseiulus persimilis').first().waitFor();
    await app.section('Solutions').getByRole('group', { name: 'Chemical solutions' }).getByRole('note').waitFor();
    await app.section('Your company’s solutions').getByText('No solutions of your company’s yet.', { exact: false }).waitFor();
    await app.check('plant-problem');

    // The company's own solution: listed at once, then on the server once synced.
    await app.addSolution('Hang yellow cards by the door and mist the aisles twice a day.');
    await expect.poll(() => app.customSolutions().allInnerTexts(), { timeout: 30_000 }).toEqual([expect.stringContaining('Hang yellow cards by the door')]);
    await app.synced();
    const solutions = () => db().selectFrom('custom_solutions').select(['problem_slug', 'solution', 'user_id']).where('company_id', '=', farm.companyId).orderBy('id').execute();
    await expect.poll(solutions, { timeout: 30_000 }).toEqual([{ problem_slug: 'two-spotted-spider-mite', solution: 'Hang yellow cards by the door and mist the aisles twice a day.', user_id: farm.admin.id }]);
    await expect.poll(() => app.customSolutions().getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);

    // An Admin sets the company's colour: shown at once, on the server once synced.
    await app.mapColour().getByText('The default colour', { exact: false }).waitFor();
    await app.setColour('Two-spotted spider mite', '#1565c0', 'TSM');
    await app.mapColour().getByText('Your company’s colour #1565c0', { exact: false }).waitFor();
    await app.synced();
    const mapping = () => db().selectFrom('problem_color_mappings').select(['problem', 'color', 'abbreviation']).where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute();
    await expect.poll(mapping, { timeout: 30_000 }).toEqual([{ problem: 'Two-spotted spider mite', color: '#1565c0', abbreviation: 'TSM' }]);
    await app.check('plant-problem-colour');

    // A look-alike, with how to tell them apart, opens its own page.
    await app.section('Look-alikes').getByText('Thrips leave silvery streaks', { exact: false }).waitFor();
    await app.openProblem('Western flower thrips');
    await expect.poll(() => app.whereTexts(), { timeout: 30_000 }).toEqual(['Veg room 1 open']);

    // Offline: the catalogue still searches, a problem's page still shows its content.
    await context.setOffline(true);
    await page.locator('.banner.offline').first().waitFor();
    await app.openCatalogue();
    await app.clearFilters();
    await app.search('powdery');
    await expect.poll(() => app.resultNames()).toContain('Powdery mildew');
    await app.check('plant-problems-offline');
    await app.openProblem('Powdery mildew');
    await app.section('Symptoms').getByText('White powdery patches on leaves').waitFor();
    // The company's solutions are in the local store: one added offline shows at once, waiting to sync.
    await app.addSolution('Open the vents for an hour after lights on.');
    await expect.poll(() => app.customSolutionTexts(), { timeout: 30_000 }).toEqual([expect.stringMatching(/^Open the vents for an hour after lights on\.[\s\S]*Waiting to sync$/)]);
    await app.check('plant-problem-offline');
    // Back online it reaches the server once and stops waiting.
    await context.setOffline(false);
    await app.synced();
    await expect.poll(solutions, { timeout: 30_000 }).toEqual([
      { problem_slug: 'two-spotted-spider-mite', solution: 'Hang yellow cards by the door and mist the aisles twice a day.', user_id: farm.admin.id },
      { problem_slug: 'powdery-mildew', solution: 'Open the vents for an hour after lights on.', user_id: farm.admin.id },
    ]);
    await expect.poll(() => app.customSolutions().getByText('Waiting to sync').count(), { timeout: 30_000 }).toBe(0);
    expect(await app.customSolutionTexts()).toEqual([expect.stringContaining('Open the vents for an hour after lights on.')]);

    expect(errors).toEqual([]);
  });
});
