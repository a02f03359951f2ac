/**
 * Routes and sessions in a real Chromium (spec part 1 §2, §4, §6): where each role lands after signing
 * in, /login, an unknown path signed out and signed in, and what signing out clears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_KEYS } from '../../src/api/session-store';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createTenant, type SignedInUser } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('signing in and out', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  /** Opens a new page and signs in through the screens; a wrong password stays on /signIn. */
  async function signIn(user: SignedInUser) {
    const { page, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.open('/login');
    await page.waitForURL((url) => url.pathname === '/signIn');
    await app.rendered('Sign in');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return { page, app, errors };
  }

  it('an Admin lands on /dashboard and a Regular user on /dashboard/quickview', async () => {
    const farm = await createTenant(e2e.server);
    const admin = await signIn(farm.admin);
    await admin.page.waitForURL((url) => url.pathname === '/dashboard');
    const regular = await signIn(farm.regular);
    await regular.page.waitForURL((url) => url.pathname === '/dashboard/quickview');
    await regular.app.rendered('Quick view');
    expect([...admin.errors, ...regular.errors]).toEqual([]);
  });

  it('a wrong password shows the server’s message and stays on the sign-in screen', async () => {
    const farm = await createTenant(e2e.server);
    const { page, app } = await signIn({ ...farm.regular, password: 'not the password' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password.');
    expect(new URL(page.url()).pathname).toBe('/signIn');
    await app.checkScreen('session-sign-in-error');
  });

  it('an unknown path shows the not-found text signed out, and goes home signed in', async () => {
    const { page, app } = await (async () => {
      const opened = await e2e.newPage();
      return { page: opened.page, app: new AppPage(opened.page) };
    })();
    await app.open('/no/such/place');
    await expect.poll(() => page.getByText('Page Not Found: The page you are looking for does not exist.').isVisible()).toBe(true);
    await app.checkScreen('session-not-found');

    const farm = await createTenant(e2e.server);
    const regular = await signIn(farm.regular);
    await regular.page.waitForURL((url) => url.pathname === '/dashboard/quickview');
    await regular.app.open('/no/such/place');
    await regular.page.waitForURL((url) => url.pathname === '/dashboard/quickview');
  });

  it('signing out clears the five stored items (local storage and cookies) and the isLoggedIn flag, and goes to /signIn', async () => {
    const farm = await createTenant(e2e.server);
    const { page } = await signIn(farm.admin);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    // The access token and the flag in local storage; role, user, refresh token and company in cookies (spec part 1 §3).
    const cookieNames = [SESSION_KEYS.userRole, SESSION_KEYS.userId, SESSION_KEYS.refreshToken, SESSION_KEYS.companyId] as string[];
    const stored = async () => [
      ...(await page.evaluate((keys) => keys.map((key) => localStorage.getItem(key)), Object.values(SESSION_KEYS))),
      ...(await page.context().cookies()).filter((cookie) => cookieNames.includes(cookie.name)).map((cookie) => cookie.value),
    ];
    expect((await stored()).filter((value) => value !== null).length).toBeGreaterThanOrEqual(7);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/signIn');
    expect((await stored()).every((value) => value === null)).toBe(true);
    // The dashboard is closed again.
    await new AppPage(page).open('/dashboard/rooms');
    await page.waitForURL((url) => url.pathname === '/signIn');
  });

  it('a Regular user opening an Admin screen goes to /unauthorized; an Admin sees it', async () => {
    const farm = await createTenant(e2e.server);
    const grower = new AppPage((await e2e.newPage()).page);
    await grower.signIn(farm.regular);
    await grower.open('/dashboard/automations');
    await grower.page.waitForURL((url) => url.pathname === '/unauthorized');
    await grower.rendered('Access denied');
    await grower.checkScreen('session-unauthorized');

    const manager = new AppPage((await e2e.newPage()).page);
    await manager.signIn(farm.admin);
    await manager.open('/dashboard/automations');
    await manager.rendered('Automations');
    await manager.checkScreen('session-upcoming-automations');
  });
});
