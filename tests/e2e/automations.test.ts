/**
 * The Admins' automations screen in a real Chromium against the real server (issue 16): an Admin
 * creates an e-mail rule for a problem type (the schema's message shown inline first), sees it under
 * its kind, sends a test that arrives at the test server's SMTP catcher and shows in the rule's
 * delivery log as sent, edits it, sees nothing stale offline, and deletes it. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationRecord } from '../../common/schemas/automations';
import { notificationMessages } from '../../common/messages/automations';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createTenant } from '../support/factories';
import { AppPage } from './app-page';

let e2e: E2E;

describe.skipIf(skipBrowser)('automations', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('an Admin creates an e-mail rule for a problem type, tests it, sees it sent in its log, edits it and deletes it', async () => {
    const farm = await createTenant(e2e.server);
    const recipient = `scout-${farm.companyId}@example.test`;
    const rulesOnServer = async () => {
      const answer = await e2e.server.request<{ notifications: NotificationRecord[] }>('GET', `/get_notifications?user_id=${farm.admin.id}`, { token: farm.admin.token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.notifications;
    };

    const { page, context, errors } = await e2e.newPage();
    const app = new AppPage(page);
    await app.signIn(farm.admin);
    await app.open('/dashboard/automations');
    await app.rendered('Automations');
    await page.getByText('No automations yet.').waitFor({ timeout: 15_000 });
    await app.checkScreen('automations-empty');

    // The form: without a recipient, the spec's message shows under it and nothing is saved.
    await page.getByRole('button', { name: 'New automation' }).click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Problem type').fill('Thrips');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => form.getByRole('alert').innerText(), { timeout: 15_000 }).toBe(notificationMessages.emailRecipientRequired);
    expect(await rulesOnServer()).toEqual([]);
    await form.getByLabel(/^E-mail addresses/).fill(recipient);
    await app.checkScreen('automations-new');
    await form.getByRole('button', { name: 'Create automation' }).click();

    // Listed under its kind, with its recipient.
    const group = page.getByRole('region', { name: 'Problem recorded' });
    const card = group.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Thrips recorded' }) });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.innerText()).toContain(`to ${recipient}`);
    const [saved] = await rulesOnServer();
    expect(saved).toMatchObject({ trigger: 'problem_recorded', method: 'email', problem_type: 'Thrips', email_recipient: recipient });

    // A test: the mail arrives, and the rule's log shows it sent.
    await card.getByRole('button', { name: 'Send a test' }).click();
    await card.getByRole('status').filter({ hasText: 'Test queued' }).waitFor({ timeout: 15_000 });
    const mail = await e2e.server.mailTo(recipient, 30_000);
    expect(mail.subject).toContain('[Test] Thrips recorded');
    const log = card.getByRole('region', { name: 'Delivery log of Thrips recorded' });
    // The open log reads itself again while a message waits; Refresh is the Admin's own way to ask.
    const refresh = log.getByRole('button', { name: 'Refresh' });
    await expect
      .poll(
        async () => {
          if (await refresh.isEnabled()) await refresh.click();
          return log.locator('.delivery-status').allInnerTexts();
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toEqual(['Sent']);
    const entry = await log.getByRole('listitem').innerText();
    expect(entry).toContain('[Test] Thrips recorded');
    expect(entry).toContain(`To ${recipient}`);
    await app.checkScreen('automations-log');

    // Edited: another problem type, the same recipient.
    await card.getByRole('button', { name: 'Edit' }).click();
    const editForm = page.getByRole('form', { name: 'Edit automation' });
    expect(await editForm.getByLabel(/^E-mail addresses/).inputValue()).toBe(recipient);
    await editForm.getByLabel('Problem type').fill('Powdery mildew');
    await editForm.getByRole('button', { name: 'Save automation' }).click();
    const edited = group.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Powdery mildew recorded' }) });
    await edited.waitFor({ timeout: 15_000 });
    expect(await rulesOnServer()).toEqual([expect.objectContaining({ id: saved!.id, problem_type: 'Powdery mildew', email_recipient: recipient })]);

    // Offline: the screen says rules need the connection and shows none (no stale copy); back online, they return.
    await context.setOffline(true);
    await page.getByText('Offline: automations need the connection.', { exact: false }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('heading', { name: 'Powdery mildew recorded' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New automation' }).count()).toBe(0);
    await app.checkScreen('automations-offline');
    await context.setOffline(false);
    await edited.waitFor({ timeout: 30_000 });

    // Deleted, after the question.
    await edited.getByRole('button', { name: 'Delete', exact: true }).click();
    await edited.getByRole('group', { name: /^Delete the automation/ }).getByRole('button', { name: 'Delete automation' }).click();
    await page.getByText('No automations yet.').waitFor({ timeout: 15_000 });
    expect(await rulesOnServer()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
