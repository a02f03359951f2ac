/**
 * The form builder in a real Chromium against the real server (spec part 2 §2 formbuilder, §3, §5, §7):
 * an Admin builds a form with a required field and a field hidden until another is answered, tries it
 * in the preview, saves it, changes it, makes another form the default and deletes one, resets to the
 * built-in forms, and builds a form offline. Each step checks what the screen shows and what the
 * server then has. Nothing is mocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createTenant } from '../support/factories';
import { FormBuilderPage } from './form-builder-page';

let e2e: E2E;
const db = () => e2e.server.database.db;

const liveTemplates = (companyId: number) =>
  db().selectFrom('form_templates').select(['id', 'template_name', 'form_category', 'is_default']).where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute();

const templateNamed = async (companyId: number, name: string) => (await liveTemplates(companyId)).find((template) => template.template_name === name) ?? null;

/** A template's fields as the server keeps them, by position. */
const fieldsOf = (templateId: number) =>
  db()
    .selectFrom('form_fields')
    .select(['id', 'field_name', 'field_type', 'field_options', 'is_required', 'is_active', 'position'])
    .where('template_id', '=', templateId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();

const rulesOf = (templateId: number) =>
  db().selectFrom('form_field_hide_rules').select(['hidden_field_id', 'linked_field_id', 'linked_input']).where('template_id', '=', templateId).where('deleted_at', 'is', null).execute();

describe.skipIf(skipBrowser)('the form builder', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    e2e = await startE2E();
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
  });

  it('builds a form with a required field and a field hidden until another is answered, previews it, saves it and changes it', async () => {
    const farm = await createTenant(e2e.server);
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new FormBuilderPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    await page.getByText('No forms yet.').waitFor();
    await app.checkScreen('formbuilder-list-empty');

    await app.newForm();
    // Saving with nothing: the domain function's own message.
    await page.getByRole('button', { name: 'Save form' }).click();
    await expect.poll(() => app.alert().textContent()).toBe('Form template save needs template name, company and fields');
    await app.checkScreen('formbuilder-new-error');

    await app.nameForm('Mite check', 'Scouting');
    // The error was about the draft as it was: changing it clears it.
    expect(await app.alert().count()).toBe(0);
    // A choice field with no option: the same message as the server's.
    await page.getByRole('button', { name: 'Add field' }).click();
    const editor = page.getByRole('form', { name: 'New field' });
    await app.fillField(editor, { name: 'Mites seen', type: 'Radio' });
    await editor.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(() => editor.getByRole('alert').textContent()).toBe('Mites seen needs at least one option.');
    await app.checkScreen('formbuilder-field-error');
    await app.fillField(editor, { options: ['Yes', 'No'], required: true });
    await editor.getByRole('button', { name: 'Add field' }).click();
    await app.field('Mites seen').waitFor();

    await app.addField({ name: 'Notes', type: 'Textarea' });
    await app.addField({ name: 'Mite count', type: 'Number', showWhen: { field: 'Mites seen', answer: 'Yes' } });
    expect(await app.fieldNames()).toEqual(['Mites seen', 'Notes', 'Mite count']);
    await app.field('Mite count').getByRole('button', { name: 'Move up Mite count' }).click();
    expect(await app.fieldNames()).toEqual(['Mites seen', 'Mite count', 'Notes']);
    expect(await app.field('Mite count').textContent()).toContain('Shows only when Mites seen is Yes');
    expect(await app.field('Mites seen').textContent()).toContain('Required');
    await app.checkScreen('formbuilder-builder');

    // The preview: the count shows only once "Yes" is answered, and the required field is asked for.
    await app.tab('Preview').click();
    const preview = app.preview();
    await preview.getByRole('radiogroup', { name: 'Mites seen' }).waitFor();
    expect(await preview.getByLabel('Mite count').count()).toBe(0);
    await preview.getByRole('button', { name: 'Try sending' }).click();
    await expect.poll(() => preview.getByRole('status').textContent()).toBe('Mites seen is required.');
    await app.checkScreen('formbuilder-preview-required');
    await preview.getByRole('radio', { name: 'No' }).check();
    expect(await preview.getByLabel('Mite count').count()).toBe(0);
    await preview.getByRole('radio', { name: 'Yes' }).check();
    await preview.getByLabel('Mite count').waitFor();
    await preview.getByLabel('Mite count').fill('7');
    await expect.poll(() => preview.getByRole('status').textContent()).toContain('growers could send this');
    await app.checkScreen('formbuilder-preview');
    await app.tab('Fields').click();

    await app.save();
    await expect.poll(() => app.card('Mite check').textContent()).toContain('Default Scouting form');
    await app.checkScreen('formbuilder-list');

    // The server has the form, its fields in order with the required flag, and the rule.
    await expect.poll(async () => (await templateNamed(farm.companyId, 'Mite check'))?.is_default ?? null, { timeout: 30_000 }).toBe(true);
    await app.synced();
    const template = (await templateNamed(farm.companyId, 'Mite check'))!;
    expect(template.form_category).toBe('Scouting');
    const fields = await fieldsOf(template.id);
    expect(fields.map((field) => [field.field_name, field.field_type, field.is_required, field.is_active])).toEqual([
      ['Mites seen', 'Radio', 1, 1],
      ['Mite count', 'Number', 0, 1],
      ['Notes', 'Textarea', 0, 1],
    ]);
    expect(fields[0]!.field_options).toEqual(['Yes', 'No']);
    const [seen, count, notes] = fields;
    expect(await rulesOf(template.id)).toEqual([{ hidden_field_id: count!.id, linked_field_id: seen!.id, linked_input: 'Yes' }]);
    // And answers it to the app as the spec's call does.
    const listed = await e2e.server.request<{ templates: Array<{ TemplateName: string; hide_rules: unknown[] }> }>('GET', '/get_form_templates', {
      token: farm.admin.token,
      query: { company_id: farm.companyId, template_id: template.id },
    });
    expect(listed.body.templates.map((each) => [each.TemplateName, each.hide_rules.length])).toEqual([['Mite check', 1]]);

    // Change it: a new field moves above saved ones; Notes comes off; the rule takes any answer.
    await app.edit('Mite check');
    await app.addField({ name: 'Leaf damage', type: 'Checkbox', options: ['Stippling', 'Webbing'] });
    await app.field('Leaf damage').getByRole('button', { name: 'Move up Leaf damage' }).click();
    await app.field('Leaf damage').getByRole('button', { name: 'Move up Leaf damage' }).click();
    expect(await app.fieldNames()).toEqual(['Mites seen', 'Leaf damage', 'Mite count', 'Notes']);
    await app.field('Notes').getByRole('button', { name: 'Remove Notes' }).click();
    await page.getByRole('button', { name: 'Put back Notes' }).waitFor();
    await app.checkScreen('formbuilder-edit-removed');
    await app.field('Mite count').getByRole('button', { name: 'Edit Mite count' }).click();
    await app.checkScreen('formbuilder-edit-field');
    await page.getByRole('form', { name: 'Edit field Mite count' }).getByRole('button', { name: 'Cancel' }).click();
    await app.editField('Mite count', { showWhen: { field: 'Mites seen', answer: '' } });
    expect(await app.field('Mite count').textContent()).toContain('Shows only when Mites seen is answered');
    await page.setViewportSize({ width: 1280, height: 800 });
    await app.checkScreen('formbuilder-edit-1280');
    await page.setViewportSize({ width: 768, height: 1024 });
    await app.save();
    await app.synced();
    const changed = await fieldsOf(template.id);
    expect(changed.filter((field) => field.is_active === 1).map((field) => field.field_name)).toEqual(['Mites seen', 'Leaf damage', 'Mite count']);
    expect(changed.find((field) => field.id === notes!.id)?.is_active).toBe(0);
    expect(await rulesOf(template.id)).toEqual([{ hidden_field_id: count!.id, linked_field_id: seen!.id, linked_input: '' }]);
    await expect.poll(() => app.card('Mite check').textContent()).toContain('3 fields');
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('makes another form the default of its category, and deletes a form after asking', async () => {
    const farm = await createTenant(e2e.server);
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new FormBuilderPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    // Leaving with changes not saved asks first.
    await app.newForm();
    await app.nameForm('Not kept');
    await page.getByRole('link', { name: 'All forms' }).click();
    await page.getByRole('group', { name: 'Leave without saving?' }).waitFor();
    await app.checkScreen('formbuilder-leave');
    await page.getByRole('group', { name: 'Leave without saving?' }).getByRole('button', { name: 'Stay' }).click();
    expect(await page.getByLabel('Form name').inputValue()).toBe('Not kept');
    await page.getByRole('link', { name: 'All forms' }).click();
    await page.getByRole('group', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave without saving' }).click();
    await app.rendered('Form builder');
    await page.getByText('No forms yet.').waitFor();

    for (const name of ['First scout', 'Second scout']) {
      await app.newForm();
      await app.nameForm(name);
      await app.addField({ name: 'Pests', type: 'Text' });
      await app.save();
      await app.card(name).waitFor();
    }
    await app.synced();
    expect(await app.namesIn('Scouting')).toEqual(['First scout', 'Second scout']);
    expect(await app.card('First scout').textContent()).toContain('Default Scouting form');

    await app.card('Second scout').getByRole('button', { name: 'Make default' }).click();
    await expect.poll(() => app.namesIn('Scouting')).toEqual(['Second scout', 'First scout']);
    expect(await app.card('Second scout').textContent()).toContain('Default Scouting form');
    await app.synced();
    await app.checkScreen('formbuilder-list-default');
    expect((await liveTemplates(farm.companyId)).map((template) => [template.template_name, template.is_default])).toEqual([
      ['First scout', false],
      ['Second scout', true],
    ]);

    await app.card('First scout').getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('group', { name: 'Delete form First scout?' });
    await question.getByText('answers already given keep theirs').waitFor();
    await app.checkScreen('formbuilder-delete');
    await question.getByRole('button', { name: 'Keep' }).click();
    await app.card('First scout').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('group', { name: 'Delete form First scout?' }).getByRole('button', { name: 'Delete' }).click();
    await app.card('First scout').waitFor({ state: 'detached' });
    await app.synced();
    expect((await liveTemplates(farm.companyId)).map((template) => template.template_name)).toEqual(['Second scout']);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('sends a Regular user to /unauthorized', async () => {
    const farm = await createTenant(e2e.server);
    const { page } = await e2e.newPage();
    const app = new FormBuilderPage(page);
    await app.signIn(farm.regular);
    await app.open('/dashboard/formbuilder');
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    await app.open('/dashboard/formbuilder/new');
    await page.waitForURL((url) => url.pathname === '/unauthorized');
    expect(await page.getByRole('link', { name: 'Form builder' }).count()).toBe(0);
  });

  it('resets to the built-in forms after asking, replacing every form', async () => {
    const farm = await createTenant(e2e.server);
    const saved = await e2e.server.request('POST', '/save_form_template', {
      token: farm.admin.token,
      json: { templateName: 'Our own form', companyID: farm.companyId, formCategory: 'General', fields: [{ fieldName: 'Anything', fieldType: 'Text' }] },
    });
    expect(saved.status).toBe(200);
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new FormBuilderPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    await app.card('Our own form').waitFor();

    await page.getByRole('button', { name: 'Reset to the built-in forms' }).click();
    const question = page.getByRole('group', { name: 'Replace every form with the built-in forms?' });
    await question.getByText('Every form of the company is replaced').waitFor();
    await app.checkScreen('formbuilder-reset');
    await question.getByRole('button', { name: 'Replace every form' }).click();
    await question.waitFor({ state: 'detached' });

    await app.card('Our own form').waitFor({ state: 'detached', timeout: 30_000 });
    for (const [category, name] of [
      ['Scouting', 'Scouting'],
      ['Sticky Trap', 'Sticky trap count'],
      ['Treatment', 'Treatment record'],
      ['Task', 'Task'],
    ] as const) {
      await expect.poll(() => app.namesIn(category), { timeout: 30_000 }).toEqual([name]);
      expect(await app.card(name).textContent()).toContain(`Default ${category} form`);
    }
    expect((await liveTemplates(farm.companyId)).map((template) => [template.template_name, template.form_category, template.is_default])).toEqual([
      ['Scouting', 'Scouting', true],
      ['Sticky trap count', 'Sticky Trap', true],
      ['Treatment record', 'Treatment', true],
      ['Task', 'Task', true],
    ]);
    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('offline: a form built with a rule waits to sync, then reaches the server once; the builder open on it keeps its address and the change', async () => {
    const farm = await createTenant(e2e.server);
    const { context, page, errors, console: messages } = await e2e.newPage();
    const app = new FormBuilderPage(page);
    await app.signIn(farm.admin);
    await app.openList();
    await page.getByText('No forms yet.').waitFor();
    await expect.poll(() => app.pending()).toBe('0');
    // The service worker holds the app's code, so the builder loads offline.
    expect(await app.activeServiceWorker()).not.toBeNull();
    await expect.poll(() => app.controller()).not.toBeNull();

    await context.setOffline(true);
    await page.getByText('Offline: you see this tablet’s copy').waitFor();
    const reset = page.getByRole('button', { name: 'Reset to the built-in forms' });
    // Polled: the button follows the sync worker's view of the connection, which may settle a moment after the banner's.
    await page.getByText('Resetting to the built-in forms needs a connection').waitFor();
    await expect.poll(() => reset.isDisabled(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => reset.getAttribute('aria-describedby'), { timeout: 10_000 }).toBe('reset-needs-connection');

    await app.newForm();
    await app.nameForm('Trap walk', 'Sticky Trap');
    await page.getByText('this is a sticky-trap count form').waitFor();
    await app.checkScreen('formbuilder-new-offline');
    await app.addField({ name: 'Trap checked', type: 'Dropdown', options: ['Yes', 'No'], required: true });
    await app.addField({ name: 'Thrips', type: 'Number', showWhen: { field: 'Trap checked', answer: 'Yes' } });
    await app.save();
    await expect.poll(() => app.card('Trap walk').textContent()).toContain('Waiting to sync');
    await expect.poll(() => app.pending()).toBe('2');
    await app.checkScreen('formbuilder-list-offline');
    expect(await liveTemplates(farm.companyId)).toEqual([]);

    // Opened again while it waits, and changed: when it syncs, the builder stays on the form (its address is its
    // client id, before and after) and keeps the change.
    await app.edit('Trap walk');
    const address = new URL(page.url()).pathname;
    expect(address).toMatch(/^\/dashboard\/formbuilder\/[0-9a-f-]{36}\/Trap%20walk$/);
    await app.addField({ name: 'Whitefly', type: 'Number' });
    await context.setOffline(false);
    await app.synced();
    // Save compares with the tablet's copy of the form: wait until the pull has brought the server's, rule included
    // (a pull answered between the form's save and its rule's can hold it back for a moment).
    await expect
      .poll(async () => (await app.localDocuments('form_templates')).find((document) => document.TemplateName === 'Trap walk' && typeof document.serverId === 'number')?.hide_rules, { timeout: 30_000 })
      .toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe(address);
    expect(await app.fieldNames()).toEqual(['Trap checked', 'Thrips', 'Whitefly']);
    await app.save();
    await app.synced();
    await expect.poll(() => app.card('Trap walk').textContent(), { timeout: 30_000 }).not.toContain('Waiting to sync');
    const templates = await liveTemplates(farm.companyId);
    expect(templates.map((template) => [template.template_name, template.form_category, template.is_default])).toEqual([['Trap walk', 'Sticky Trap', true]]);
    const fields = await fieldsOf(templates[0]!.id);
    expect(fields.map((field) => [field.field_name, field.is_required])).toEqual([
      ['Trap checked', 1],
      ['Thrips', 0],
      ['Whitefly', 0],
    ]);
    expect(await rulesOf(templates[0]!.id)).toEqual([{ hidden_field_id: fields[1]!.id, linked_field_id: fields[0]!.id, linked_input: 'Yes' }]);
    expect(errors, messages.join('\n')).toEqual([]);
  });
});
