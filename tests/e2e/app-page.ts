/**
 * Page model of the web app for the end-to-end tests: what a test does with the app and reads from
 * it, named once. Screens add their own models beside it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';

/** Where screenshots of the screens go (not committed: test-output/ is ignored). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-output', 'screenshots');

/** A local document as IndexedDB holds it (RxDB's Dexie storage: the document plus RxDB's own fields). */
export type StoredDocument = Record<string, unknown> & { id: string; _deleted?: boolean | string };

export class AppPage {
  constructor(readonly page: Page) {}

  /** Opens a path of the app (relative to the test server) and waits for it to load. */
  async open(path = '/'): Promise<Response | null> {
    return this.page.goto(path, { waitUntil: 'load' });
  }

  /**
   * Signs in through the sign-in screen (from /login, which sends there) and waits until the app has
   * landed and, on a new tablet, until its first pull of the company's data has completed (until then
   * the screens say they are loading instead of showing their empty states) and the service worker
   * has saved the app. `waitForData: false` returns as soon as the dashboard opens, to see that loading;
   * `appSaved: false` waits for the data but not for the service worker, for a test that keeps a part
   * of the app from being saved (its install then fails, and no worker ever controls the page).
   */
  async signIn(user: { email: string; password: string }, options: { waitForData?: boolean; appSaved?: boolean } = {}): Promise<void> {
    await this.open('/login');
    await this.page.waitForURL((url) => url.pathname === '/signIn');
    await this.rendered('Sign in');
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
    if (options.waitForData ?? true) {
      await expect.poll(() => this.companyDataPulled(), { timeout: 60_000 }).toBe(true);
      // And the app saved on the tablet (its service worker controls the page), as a grower's "Ready
      // offline" requires: a test that then takes the signal away finds the app's screens there, however
      // long the first install's precache took on a busy machine.
      if (options.appSaved ?? true) await expect.poll(() => this.controller(), { timeout: 60_000 }).not.toBeNull();
    }
  }

  /**
   * Whether this tablet has completed a first pull of a company's data: src/sync/sync-store.ts notes
   * it in local storage (`growroom.pulled.<server and company>`) once the sync worker reports it done.
   */
  companyDataPulled(): Promise<boolean> {
    return this.page.evaluate(() => Object.keys(localStorage).some((key) => key.startsWith('growroom.pulled.') && localStorage.getItem(key) === '1'));
  }

  /** What the sync indicator says ("Offline · 1 pending", "All changes saved"). */
  syncLabel() {
    return this.page.locator('.sync-chip').textContent();
  }

  /** The sync indicator's count of changes waiting for the server. */
  pending() {
    return this.page.locator('.sync-chip').getAttribute('data-pending');
  }

  /**
   * Waits until every change has reached the server: the outbox itself is empty and the indicator
   * counts 0. The indicator alone is not enough right after a change: the screen shows the change as
   * soon as it is stored, a moment before the sync worker has counted it.
   */
  async synced() {
    const deadline = Date.now() + 30_000;
    while ((await this.outboxCount()) > 0) {
      // Name what is still waiting and why (a refused entry stays failed, a retry waits its backoff), so a failure says more than a count.
      if (Date.now() > deadline) throw new Error(`The outbox did not empty within 30 s:\n${JSON.stringify(await this.outboxEntries(), null, 1)}`);
      await this.page.waitForTimeout(100);
    }
    await expect.poll(() => this.pending(), { timeout: 30_000 }).toBe('0');
  }

  /** The changes waiting in the outbox (sync/outbox.ts, the `growroom-outbox` database), read from IndexedDB. */
  async outboxCount(): Promise<number> {
    return (await this.outboxEntries()).length;
  }

  /** What each waiting change is and how its last attempt went. */
  outboxEntries(): Promise<Array<{ label: string; path: string; state: string; attempts: number; error: string | null; nextAttemptAt: number }>> {
    return this.page.evaluate(async () => {
      if (!(await indexedDB.databases()).some((info) => info.name === 'growroom-outbox')) return [];
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('growroom-outbox');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!database.objectStoreNames.contains('entries')) return [];
        const entries = await new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
          const request = database.transaction('entries', 'readonly').objectStore('entries').getAll();
          request.onsuccess = () => resolve(request.result as Array<Record<string, unknown>>);
          request.onerror = () => reject(request.error);
        });
        return entries.map((entry) => ({
          label: String(entry.label),
          path: String(entry.path),
          state: String(entry.state),
          attempts: Number(entry.attempts),
          error: typeof entry.error === 'string' ? entry.error : null,
          nextAttemptAt: Number(entry.nextAttemptAt),
        }));
      } finally {
        database.close();
      }
    });
  }

  /** A full-page screenshot of the current screen, named `name`, in SCREENSHOT_DIR. */
  async screenshot(name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await this.page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  /**
   * axe-core's serious and critical violations on the screen as it is now (all of axe's rules, plus the
   * experimental label-content-name-mismatch: a control whose accessible name does not start with
   * the words it shows cannot be used by voice), each as "rule: target, target" so a failing assertion
   * names what to fix.
   * Every screen is checked with `expect(await app.accessibilityViolations()).toEqual([])`.
   */
  async accessibilityViolations(): Promise<string[]> {
    const results = await new AxeBuilder({ page: this.page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  /** Each screen's check: a screenshot named `name` at the tablet size, and no serious or critical axe violation. */
  async checkScreen(name: string): Promise<void> {
    await this.screenshot(name);
    expect(await this.accessibilityViolations(), `axe on ${name}`).toEqual([]);
  }

  async reload(): Promise<Response | null> {
    return this.page.reload({ waitUntil: 'load' });
  }

  /** A screen's heading: rendered by React, so it is there only when the app's script ran. */
  heading(name = 'Grow Room') {
    return this.page.getByRole('heading', { level: 1, name });
  }

  /** Waits until the app has rendered the screen headed `name` (the home page by default); fails after `timeout` ms. */
  async rendered(name = 'Grow Room', timeout = 15_000): Promise<void> {
    await this.visible(this.heading(name), `The screen headed "${name}"`, timeout);
  }

  /**
   * Waits until `locator` is visible; fails after `timeout` ms saying what the screen shows instead (its
   * address, headings, alerts and toasts), so a failure says more than a timeout.
   */
  async visible(locator: Locator, what: string, timeout = 15_000): Promise<void> {
    try {
      await locator.waitFor({ state: 'visible', timeout });
    } catch (error) {
      throw new Error(`${what} did not show within ${timeout} ms; the app shows:\n${JSON.stringify(await this.shown(), null, 1)}`, { cause: error });
    }
  }

  /** What the screen shows now: its address, headings, alerts, toasts and busy buttons. */
  async shown(): Promise<{ path: string; headings: string[]; alerts: string[]; busy: string[] }> {
    const texts = (selector: string) => this.page.locator(selector).allInnerTexts().catch(() => []);
    return {
      path: new URL(this.page.url()).pathname,
      headings: await texts('h1'),
      alerts: await texts('[role="alert"], #notistack-snackbar'),
      busy: await texts('button[disabled], [aria-busy="true"]'),
    };
  }

  /** Waits (up to `timeout` ms) until a service worker is active for the page's scope; returns its script URL, or null. */
  async activeServiceWorker(timeout = 15_000): Promise<string | null> {
    return this.page.evaluate(async (ms) => {
      const none = new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));
      const registration = await Promise.race([navigator.serviceWorker.ready, none]);
      return registration?.active?.scriptURL ?? null;
    }, timeout);
  }

  /** The script URL of the service worker controlling the page, or null when none does. */
  async controller(): Promise<string | null> {
    return this.page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
  }

  /**
   * Puts a session into the page's localStorage: `entries` are what the app's own session store
   * (src/api/session.ts `localSessionStore().set`) wrote, so the keys and values are the app's.
   */
  async storeSession(entries: Iterable<[string, string]>): Promise<void> {
    await this.page.evaluate((items) => {
      for (const [key, value] of items) localStorage.setItem(key, value);
    }, [...entries]);
  }

  /**
   * The documents of a local collection, read from IndexedDB directly (RxDB's Dexie storage keeps one
   * database per collection, named `rxdb-dexie-growroom-2--<schema version>--<collection>`, documents in
   * its `docs` store). Only databases that exist are opened: opening a missing one would create it.
   * Deleted documents (RxDB tombstones) are left out.
   */
  async localDocuments(collection: string): Promise<StoredDocument[]> {
    return this.page.evaluate(async (suffix) => {
      const names = (await indexedDB.databases()).map((info) => info.name ?? '').filter((name) => name.startsWith('rxdb-dexie-growroom') && name.endsWith(suffix));
      const found: StoredDocument[] = [];
      for (const name of names) {
        const database = await new Promise<IDBDatabase | null>((resolve, reject) => {
          const request = indexedDB.open(name);
          // Deleted since it was listed: do not create it in its place.
          request.onupgradeneeded = () => request.transaction?.abort();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => (request.error?.name === 'AbortError' ? resolve(null) : reject(request.error));
        });
        if (!database) continue;
        try {
          if (!database.objectStoreNames.contains('docs')) continue;
          const rows = await new Promise<StoredDocument[]>((resolve, reject) => {
            const request = database.transaction('docs', 'readonly').objectStore('docs').getAll();
            request.onsuccess = () => resolve(request.result as StoredDocument[]);
            request.onerror = () => reject(request.error);
          });
          // The Dexie storage keeps `_deleted` as '0' / '1' (it indexes it, and IndexedDB cannot index booleans).
          for (const row of rows) {
            const deleted = row._deleted === true || row._deleted === '1';
            if (!deleted) found.push({ ...row, _deleted: false });
          }
        } finally {
          database.close();
        }
      }
      return found;
    }, `--${collection}`);
  }
}
