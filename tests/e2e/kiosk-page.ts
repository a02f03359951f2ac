/**
 * The shared kiosk's screens, named once, for the end-to-end tests: the top bar's user menu, the PIN
 * to set, the switch screen and its PIN pad, the full sign-out's confirmation, the sync panel's
 * per-user lines; and a small accessibility check of what is on the screen.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SignedInUser } from '../support/factories';
import { RoomsPage } from './rooms-page';

export class KioskPage extends RoomsPage {
  constructor(page: Page) {
    super(page);
  }

  userMenu() {
    return this.page.locator('.user-menu');
  }

  /** "Switch user" in the top bar: lands on the switch screen, or on "Set your PIN" for a user without one. */
  async switchUser(): Promise<void> {
    await this.userMenu().getByRole('button', { name: 'Switch user' }).click();
    await this.page.waitForURL((url) => url.pathname === '/switchUser');
  }

  setPinForm() {
    return this.page.getByRole('form', { name: 'Set your PIN' });
  }

  /** Types the PIN twice on the keypad's fields and saves it: the user is parked, the switch screen shows. */
  async setPin(pin: string, confirm = pin): Promise<void> {
    const form = this.setPinForm();
    await form.getByLabel('PIN', { exact: true }).fill(pin);
    await form.getByLabel('Confirm PIN', { exact: true }).fill(confirm);
    await form.getByRole('button', { name: 'Save PIN and switch user' }).click();
  }

  members() {
    return this.page.getByRole('list', { name: 'Users on this tablet' });
  }

  /** A user's big button on the switch screen. */
  member(name: string) {
    return this.members().getByRole('button', { name });
  }

  pinForm(name: string) {
    return this.page.getByRole('form', { name: `PIN of ${name}` });
  }

  /** Taps a user and types their PIN; does not wait for the outcome (a wrong PIN stays). */
  async enterPin(name: string, pin: string): Promise<void> {
    if (!(await this.pinForm(name).isVisible())) await this.member(name).click();
    const form = this.pinForm(name);
    await form.getByLabel('PIN', { exact: true }).fill(pin);
    await form.getByRole('button', { name: 'Switch' }).click();
  }

  /** Switches to a parked user by PIN and waits for their dashboard. */
  async switchTo(name: string, pin: string): Promise<void> {
    await this.enterPin(name, pin);
    await this.page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
    await this.userMenu().getByText(name).waitFor();
  }

  /** "Another user", then the password sign-in. */
  async anotherUser(user: Pick<SignedInUser, 'email' | 'password'>): Promise<void> {
    await this.page.getByRole('button', { name: 'Another user' }).click();
    await this.page.waitForURL((url) => url.pathname === '/signIn');
    await this.page.getByLabel('Email').fill(user.email);
    await this.page.getByLabel('Password').fill(user.password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
    await this.page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
  }

  signOutPanel() {
    return this.page.getByRole('dialog', { name: 'Sign out with changes waiting?' });
  }

  /** The screen's check (AppPage.checkScreen: screenshot and axe) once the toasts have gone, so they hide nothing. */
  async check(name: string): Promise<void> {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }

  /** The sync indicator's panel, opened. */
  async syncPanel() {
    const panel = this.page.getByRole('dialog', { name: 'Changes waiting to reach the server' });
    if (!(await panel.isVisible())) await this.page.locator('.sync-chip').click();
    await panel.waitFor();
    return panel;
  }

  /**
   * What the tablet needs beyond axe's checks (`check`), by hand: buttons without a name, fields without
   * a label, touch targets under 44 px (axe asks 24), and a PIN field the browser may fill in or that
   * opens a letter keyboard.
   */
  accessibilityProblems(): Promise<string[]> {
    return this.page.evaluate(() => {
      const problems: string[] = [];
      const visible = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
      };
      const describe = (element: Element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
      const named = (element: Element) => Boolean(element.getAttribute('aria-label')?.trim() || element.getAttribute('aria-labelledby') || (element.textContent ?? '').trim());
      for (const element of document.querySelectorAll('button, a.button, [role="button"]')) {
        if (!visible(element)) continue;
        if (!named(element)) problems.push(`no accessible name: ${describe(element)}`);
        const box = element.getBoundingClientRect();
        if (box.width < 44 || box.height < 44) problems.push(`touch target ${Math.round(box.width)}×${Math.round(box.height)}: ${describe(element)}`);
      }
      for (const element of document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea')) {
        if (!visible(element) || element.type === 'hidden') continue;
        if (!(element.labels?.length || element.getAttribute('aria-label') || element.getAttribute('aria-labelledby'))) problems.push(`no label: ${describe(element)}`);
        const box = element.getBoundingClientRect();
        if (box.height < 44) problems.push(`field height ${Math.round(box.height)}: ${describe(element)}`);
      }
      for (const pin of document.querySelectorAll('input.pin-input')) {
        if (pin.getAttribute('inputmode') !== 'numeric') problems.push('PIN field without inputmode="numeric"');
        if (pin.getAttribute('autocomplete') !== 'off') problems.push('PIN field without autocomplete="off"');
      }
      if (!document.querySelector('h1')) problems.push('no level-1 heading');
      return problems;
    });
  }
}
