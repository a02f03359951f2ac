/** Outside consultants' screens (src/features/consultants), named once for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export class ConsultantsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** The Admin's consultants screen, from the navigation. */
  async openConsultants() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Consultants' }).click();
    await this.rendered('Consultants');
  }

  /** Invites `email` for the period chosen by its label ("30 days"). */
  async invite(email: string, period: string) {
    await this.page.getByLabel('Consultant’s email').fill(email);
    await this.page.getByLabel('Access for').selectOption({ label: period });
    await this.page.getByRole('button', { name: 'Send invitation' }).click();
  }

  list() {
    return this.page.getByRole('list', { name: 'Consultants' });
  }

  /** A grant in the Admin's list, by who it is (the name once accepted, else the address) and its status. */
  row(who: string, status: 'Invited' | 'Active' | 'Expired' | 'Revoked') {
    return this.list().getByRole('listitem', { name: `${who}, ${status}` });
  }

  async revoke(who: string) {
    await this.row(who, 'Active').getByRole('button', { name: 'Revoke…' }).click();
    await this.page.getByRole('group', { name: `Revoke the access of ${who}?` }).getByRole('button', { name: 'Revoke access' }).click();
    await this.row(who, 'Revoked').waitFor();
  }

  /** Accepts the invitation opened at `path` (the mailed link's path), making an account. */
  async acceptInvitation(path: string, account: { firstName: string; lastName: string; password: string }) {
    await this.open(path);
    await this.rendered('Consultant invitation');
    await this.page.getByText('read-only access to its rooms').waitFor();
    await this.shot('consultant-invitation');
    await this.page.getByLabel('First name').fill(account.firstName);
    await this.page.getByLabel('Last name').fill(account.lastName);
    await this.page.getByLabel('Password').fill(account.password);
    await this.page.getByRole('button', { name: 'Accept invitation' }).click();
    await this.page.waitForURL((url) => url.pathname === '/signIn');
  }

  /** The consultant's bar at the top of every screen. */
  bar() {
    return this.page.getByRole('region', { name: 'Consultant access' });
  }

  /** The task's screen, from the tasks list. */
  async openTask(title: string) {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await this.rendered('Tasks');
    const item = this.page.getByRole('list', { name: 'Tasks', exact: true }).getByRole('listitem').filter({ hasText: title });
    await item.waitFor({ timeout: 30_000 });
    await item.getByRole('link').click();
    await this.rendered(title);
  }

  async comment(text: string) {
    await this.page.getByLabel('Add a comment').fill(text);
    await this.page.getByRole('button', { name: 'Add comment' }).click();
    await this.page.getByRole('list', { name: 'Comments' }).getByRole('listitem').filter({ hasText: text }).waitFor();
  }

  /** The screen's check once the toasts have gone, so they hide nothing. */
  async shot(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
