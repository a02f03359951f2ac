/**
 * The settings, trays, profile, company and public session screens in a real Chromium against the real
 * server (tests/support/browser.ts), through the screens: what the grower sees, and what the server
 * then has. Also where the session is kept (spec part 1 §3: the access token in localStorage, four
 * items in Secure SameSite=Strict cookies) and a settings change made offline.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '../../src/api/session-store';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createBatch, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;

const newEmail = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
const COOKIE_ITEMS: string[] = [SESSION_KEYS.userRole, SESSION_KEYS.userId, SESSION_KEYS.refreshToken, SESSION_KEYS.companyId];

/** A new page signed in as `user`, opened on `path` with its heading rendered. */
async function signedIn(user: SignedInUser, path?: string, heading?: string) {
  const opened = await e2e.newPage();
  const app = new AppPage(opened.page);
  await app.signIn(user);
  if (path) {
    await app.open(path);
    await app.rendered(heading);
  }
  return { ...opened, app };
}

/** The sync indicator's pending count (its chip's data-pending). */
const pendingCount = (page: Page) => page.locator('.sync-chip').getAttribute('data-pending');

const companySettings = (companyId: number) =>
  e2e.server.database.db.selectFrom('companies').select(['grid_order', 'grid_opacity', 'auto_refresh', 'language']).where('id', '=', companyId).executeTakeFirstOrThrow();

describe.skipIf(skipBrowser)('settings, trays, profile, company and sign-up screens', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('an Admin changes the grid order and opacity; a Regular user sees them read-only', async () => {
    const farm = await createTenant(e2e.server);
    const admin = await signedIn(farm.admin, '/dashboard/settings', 'Settings');
    const snake = admin.page.getByRole('radio', { name: /Snake by rows/ });
    await snake.click();
    await expect.poll(() => snake.getAttribute('aria-checked')).toBe('true');
    await admin.page.getByRole('slider', { name: 'Grid opacity' }).fill('0.5');
    await expect.poll(() => admin.page.getByText('50 %').first().isVisible()).toBe(true);
    await expect.poll(async () => (await companySettings(farm.companyId)).grid_order, { timeout: 20_000 }).toBe('snake_row');
    await expect.poll(async () => Number((await companySettings(farm.companyId)).grid_opacity), { timeout: 20_000 }).toBe(0.5);
    await admin.app.checkScreen('settings-settings');
    await admin.page.setViewportSize({ width: 1280, height: 800 });
    await admin.app.checkScreen('settings-settings-1280x800');

    const regular = await signedIn(farm.regular, '/dashboard/settings', 'Settings');
    await regular.page.getByText('Only an Admin can change these settings.').waitFor();
    await expect.poll(() => regular.page.getByTestId('grid-order-value').textContent(), { timeout: 20_000 }).toBe('Snake by rows');
    expect(await regular.page.getByTestId('grid-opacity-value').textContent()).toBe('50 %');
    expect(await regular.page.getByRole('radio').count()).toBe(0);
    expect(await regular.page.getByRole('slider').count()).toBe(0);
    expect(await regular.page.getByRole('button', { name: /Save/ }).count()).toBe(0);
    await regular.app.checkScreen('settings-settings-read-only');
    expect([...admin.errors, ...regular.errors]).toEqual([]);
  });

  it('trays: create a tray with a batch, edit it, create a template and make a tray from it, delete a tray', async () => {
    const farm = await createTenant(e2e.server);
    const batchNumber = `B-${randomBytes(3).toString('hex')}`;
    const batchId = await createBatch(e2e.server, farm.companyId, batchNumber);
    const { page, app, errors } = await signedIn(farm.admin, '/dashboard/trays', 'Trays');
    const trays = () => e2e.server.database.db.selectFrom('trays').select(['tray_name', 'number_of_plants', 'batch_id', 'deleted_at']).where('company_id', '=', farm.companyId).orderBy('id').execute();

    await page.getByText('No trays yet.').waitFor();
    await app.checkScreen('settings-trays-empty');
    await page.getByRole('button', { name: 'New tray' }).click();
    const form = page.getByRole('form', { name: 'New tray' });
    await form.getByLabel('Tray name').fill('Bench 1');
    await form.getByLabel('Number of plants').fill('24');
    // The batch reaches the tablet with the first pull.
    await expect.poll(() => form.getByRole('option', { name: new RegExp(batchNumber) }).count(), { timeout: 20_000 }).toBe(1);
    await form.getByLabel('Batch').selectOption({ label: `${batchNumber} · Test strain` });
    await form.getByRole('button', { name: 'Create tray' }).click();
    const bench = page.getByRole('listitem', { name: 'Bench 1' });
    await bench.getByText(`Batch ${batchNumber}`).waitFor();
    await expect.poll(trays, { timeout: 20_000 }).toEqual([{ tray_name: 'Bench 1', number_of_plants: 24, batch_id: batchId, deleted_at: null }]);

    // A plant count of 0 is refused with the spec's message, before anything is recorded.
    await bench.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit tray Bench 1' });
    await edit.getByLabel('Number of plants').fill('0');
    await edit.getByRole('button', { name: 'Save tray' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toBe('numberOfPlants must be positive.');
    await app.checkScreen('settings-tray-error');
    await edit.getByLabel('Number of plants').fill('30');
    await edit.getByRole('button', { name: 'Save tray' }).click();
    await bench.getByText('30', { exact: true }).waitFor();
    await expect.poll(async () => (await trays())[0]?.number_of_plants, { timeout: 20_000 }).toBe(30);

    await page.getByRole('button', { name: 'New template' }).click();
    const templateForm = page.getByRole('form', { name: 'New tray template' });
    await templateForm.getByLabel('Template name').fill('Clone tray 72');
    await templateForm.getByLabel('Number of plants').fill('72');
    await templateForm.getByLabel('Description').fill('Standard clone tray');
    await templateForm.getByLabel('Default batch').selectOption({ label: `${batchNumber} · Test strain` });
    await app.checkScreen('settings-tray-template-form');
    await templateForm.getByRole('button', { name: 'Create template' }).click();
    const template = page.getByRole('listitem', { name: 'Clone tray 72' });
    await template.getByText(`Default batch ${batchNumber}`).waitFor();

    await template.getByRole('button', { name: 'Make a tray' }).click();
    const useForm = page.getByRole('form', { name: 'New tray from Clone tray 72' });
    await useForm.getByLabel('Tray name').fill('Clones A');
    await useForm.getByRole('button', { name: 'Create tray' }).click();
    const clones = page.getByRole('listitem', { name: 'Clones A' });
    await clones.getByText('72', { exact: true }).waitFor();
    await clones.getByText(`Batch ${batchNumber}`).waitFor();
    await expect.poll(trays, { timeout: 20_000 }).toContainEqual({ tray_name: 'Clones A', number_of_plants: 72, batch_id: batchId, deleted_at: null });
    const templates = await e2e.server.database.db.selectFrom('tray_templates').select(['template_name', 'number_of_plants', 'default_batch_id']).where('company_id', '=', farm.companyId).execute();
    expect(templates).toEqual([{ template_name: 'Clone tray 72', number_of_plants: 72, default_batch_id: batchId }]);
    await expect.poll(() => pendingCount(page), { timeout: 20_000 }).toBe('0');
    await app.checkScreen('settings-trays');
    await page.setViewportSize({ width: 1280, height: 800 });
    await app.checkScreen('settings-trays-1280x800');
    await page.setViewportSize({ width: 768, height: 1024 });

    await bench.getByRole('button', { name: 'Delete' }).click();
    await app.checkScreen('settings-tray-delete');
    await page.getByRole('group', { name: 'Delete tray Bench 1?' }).getByRole('button', { name: 'Delete' }).click();
    await bench.waitFor({ state: 'detached' });
    await expect.poll(async () => (await trays()).find((tray) => tray.tray_name === 'Bench 1')?.deleted_at ?? null, { timeout: 20_000 }).not.toBeNull();
    expect(errors).toEqual([]);
  });

  it('a Regular user makes trays but sees no delete or template buttons', async () => {
    const farm = await createTenant(e2e.server);
    const { page, errors } = await signedIn(farm.regular, '/dashboard/trays', 'Trays');
    await page.getByRole('button', { name: 'New tray' }).click();
    const form = page.getByRole('form', { name: 'New tray' });
    await form.getByLabel('Tray name').fill('Regular tray');
    await form.getByLabel('Number of plants').fill('6');
    await form.getByRole('button', { name: 'Create tray' }).click();
    const tray = page.getByRole('listitem', { name: 'Regular tray' });
    await tray.getByRole('button', { name: 'Edit' }).waitFor();
    expect(await tray.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New template' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('signs up through an invitation link, then signs in', async () => {
    const farm = await createTenant(e2e.server);
    const email = newEmail('invitee');
    const invited = await e2e.server.request<{ invite_token: string }>('POST', '/create_invitation', { token: farm.admin.token, form: { email, role: 'Regular' } });
    expect(invited.status).toBe(200);

    const { page, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.open(`/signUp?invite_token=${encodeURIComponent(invited.body.invite_token)}`);
    await app.rendered('Create your account');
    // The token comes from the link: no field asks for it.
    expect(await page.getByLabel('Invitation code').count()).toBe(0);
    await page.getByLabel('First name').fill('Rosa');
    await page.getByLabel('Last name').fill('Grower');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Password must be at least 8 characters.');
    await app.checkScreen('settings-signUp-error');
    await page.getByLabel('Password').fill('a-good-password');
    // Typing again clears the message.
    expect(await page.getByRole('alert').count()).toBe(0);
    await app.checkScreen('settings-signUp');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await page.getByText('Your account is ready.').waitFor();
    const created = await e2e.server.database.db.selectFrom('users').select(['first_name', 'last_name', 'role', 'company_id']).where('email', '=', email).execute();
    expect(created).toEqual([{ first_name: 'Rosa', last_name: 'Grower', role: 'Regular', company_id: farm.companyId }]);

    await app.signIn({ email, password: 'a-good-password' });
    await page.waitForURL((url) => url.pathname === '/dashboard/quickview');
    expect(errors).toEqual([]);
  });

  it('asks for a password reset link, then sets a new password from it', async () => {
    const farm = await createTenant(e2e.server);
    const { page, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.open('/ResetPassword');
    await app.rendered('Reset your password');
    await app.checkScreen('settings-reset-password');
    await page.getByLabel('Email').fill(farm.regular.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists for this email, a reset link has been sent.').waitFor();
    await app.checkScreen('settings-reset-password-sent');
    const link = /(\/NewPassword\?token=[A-Za-z0-9_%-]+)/.exec((await e2e.server.mailTo(farm.regular.email)).text)?.[1];
    expect(link).toBeTruthy();

    await app.open(link ?? '');
    await app.rendered('Set a new password');
    await app.checkScreen('settings-new-password');
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-password');
    await page.getByLabel('Repeat the new password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    await app.signIn({ email: farm.regular.email, password: 'a-brand-new-password' });
    expect(errors).toEqual([]);
  });

  it('offline, a settings change shows at once and waits; back online it reaches the server', async () => {
    const farm = await createTenant(e2e.server);
    const { context, page, app, errors } = await signedIn(farm.admin, '/dashboard/settings', 'Settings');
    const column = page.getByRole('radio', { name: /Column by column/ });
    await column.waitFor();
    await context.setOffline(true);
    await page.getByText('Offline: you see this tablet’s copy').waitFor();
    await column.click();
    await expect.poll(() => column.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => pendingCount(page)).toBe('1');
    expect((await companySettings(farm.companyId)).grid_order).toBe('row');
    await app.checkScreen('settings-settings-offline');

    await context.setOffline(false);
    await expect.poll(async () => (await companySettings(farm.companyId)).grid_order, { timeout: 30_000 }).toBe('column');
    await expect.poll(() => pendingCount(page), { timeout: 30_000 }).toBe('0');
    expect(await column.getAttribute('aria-checked')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('keeps the access token in localStorage and userRole, userID, refreshToken, companyID in Secure SameSite=Strict cookies; logout clears them', async () => {
    const farm = await createTenant(e2e.server);
    const { context, page, errors } = await signedIn(farm.admin);
    const documentCookies = async () => Object.fromEntries((await page.evaluate(() => document.cookie)).split('; ').filter(Boolean).map((pair) => pair.split('=') as [string, string]));
    const local = () => page.evaluate((keys) => Object.fromEntries(keys.map((key) => [key, localStorage.getItem(key)])), Object.values(SESSION_KEYS));

    const cookies = await documentCookies();
    expect(cookies).toMatchObject({ userRole: 'Admin', userID: String(farm.admin.id), companyID: String(farm.companyId) });
    expect(cookies.refreshToken).toBeTruthy();
    const stored = (await context.cookies()).filter((cookie) => COOKIE_ITEMS.includes(cookie.name));
    expect(stored).toHaveLength(4);
    const inTwentyNineDays = Date.now() / 1000 + 29 * 86_400;
    for (const cookie of stored) expect(cookie).toMatchObject({ secure: true, sameSite: 'Strict', path: '/', expires: expect.any(Number) });
    for (const cookie of stored) expect(cookie.expires).toBeGreaterThan(inTwentyNineDays);

    const items = await local();
    expect(items[SESSION_KEYS.accessToken]).toBeTruthy();
    expect(items[SESSION_KEYS.isLoggedIn]).toBe('true');
    for (const key of COOKIE_ITEMS) expect(items[key]).toBeNull();

    // A reload keeps the session (the dashboard opens, the sync worker gets the tokens through the page).
    await new AppPage(page).open('/dashboard/settings');
    await new AppPage(page).rendered('Settings');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    expect(await documentCookies()).toEqual({});
    expect((await context.cookies()).filter((cookie) => COOKIE_ITEMS.includes(cookie.name))).toEqual([]);
    expect(Object.values(await local()).every((value) => value === null)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('profile: the threshold saves as it is typed, the location with its button', async () => {
    const farm: Tenant = await createTenant(e2e.server);
    const { page, app, errors } = await signedIn(farm.regular, '/dashboard/profile', 'Profile');
    const user = () => e2e.server.database.db.selectFrom('users').select(['threshold', 'location']).where('id', '=', farm.regular.id).executeTakeFirstOrThrow();
    await page.getByText(farm.regular.email).waitFor();
    await page.getByRole('spinbutton', { name: 'Threshold' }).fill('7.5');
    await page.getByText('Saved.').waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await user()).threshold, { timeout: 20_000 }).toBe(7.5);
    await page.getByRole('textbox', { name: 'Location' }).fill('Greenhouse 3');
    await page.getByRole('button', { name: 'Save location' }).click();
    await expect.poll(async () => (await user()).location, { timeout: 20_000 }).toBe('Greenhouse 3');
    await app.checkScreen('settings-profile');
    expect(errors).toEqual([]);
  });

  it('company: its users, and an Admin invites a user who then shows as pending', async () => {
    const farm = await createTenant(e2e.server);
    const { page, app, errors } = await signedIn(farm.admin, '/dashboard/company', 'Company');
    const users = page.getByRole('list', { name: 'Users' });
    await users.getByText(farm.admin.email).waitFor({ timeout: 20_000 });
    await users.getByText(farm.regular.email).waitFor();
    await page.getByText('No invitations waiting.').waitFor();

    const email = newEmail('grower');
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('Regular');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('list', { name: 'Pending invitations' }).getByText(email).waitFor();
    const invitations = await e2e.server.database.db.selectFrom('invitations').select(['email', 'role']).where('company_id', '=', farm.companyId).where('deleted_at', 'is', null).execute();
    expect(invitations).toEqual([{ email, role: 'Regular' }]);
    await app.checkScreen('settings-company');

    // A Regular user sees the company and its users, not the invitations.
    const regular = await signedIn(farm.regular, '/dashboard/company', 'Company');
    await regular.page.getByRole('list', { name: 'Users' }).getByText(farm.admin.email).waitFor({ timeout: 20_000 });
    expect(await regular.page.getByRole('form', { name: 'Invite a user' }).count()).toBe(0);
    await regular.app.checkScreen('settings-company-regular');
    expect([...errors, ...regular.errors]).toEqual([]);
  });
});
