/**
 * The form builder's list (spec part 2 §2 `formbuilder`, Admins only): the company's form templates
 * from the local `form_templates` collection, grouped by category (FORM_CATEGORIES), the default of
 * each category marked. From here an Admin builds a new form, edits or fills one, makes one the default
 * of its category, deletes one, or replaces them all by the built-in set (src/api/forms.ts).
 *
 * Where the spec is silent:
 * - Every category is listed, an empty one saying so: a company without a Sticky Trap form cannot
 *   record sticky-trap counts, and the Admin should see that at a glance.
 * - Within a category the default comes first, then by name (numbers in names in number order).
 * - Deleting and resetting ask first, in place (a tablet is easy to mis-tap). Reset is the one call
 *   made online (the built-in set is the server's): offline its button is disabled and says why; after
 *   it the list follows the server with the next sync.
 * - A form made offline shows at once, marked "Waiting to sync"; it can be edited, filled and made the
 *   default before it syncs (its calls wait in the queue behind its save).
 */
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_CATEGORIES, type FormCategory, formMessages as m } from '../../../../common/messages/forms';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { deleteTemplate, resetAllTemplates, updateDefaultTemplate } from '../../../api/forms';
import { reachedServer } from '../../../api/records';
import { type SignedInUser, useAction, useLocalQuery } from '../../../app/hooks';
import type { LocalDocument } from '../../../db/schemas';
import { useSyncStatus } from '../../../sync/sync-store';
import { SignedIn } from '../../session/SignedIn';
import { ConfirmPanel, FormError } from '../../shell/forms';
import { Screen } from '../../shell/Screen';
import { templatesInOrder } from '../fill/model';
import { categoryName, formsTexts } from '../texts';
import './builder.css';

type TemplateDoc = LocalDocument & FormTemplateRecord;

export function FormListScreen() {
  const { t } = useTranslation(formsTexts);
  return <SignedIn title={t('title')}>{(user) => <FormList user={user} />}</SignedIn>;
}

function FormList({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(formsTexts);
  const { companyId } = user;
  // The company's own forms only: a shared tablet may still hold another company's.
  const templates = useLocalQuery<TemplateDoc>('form_templates', { CompanyID: companyId }, `form_templates-${companyId}`);
  const online = useSyncStatus((status) => status.online);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const reset = useAction(resetAllTemplates, m.reset);

  const byCategory = useMemo(() => {
    const groups = new Map<FormCategory, TemplateDoc[]>(FORM_CATEGORIES.map((category) => [category, []]));
    // In the order forms are offered everywhere: the category's default first, then by name.
    for (const template of templatesInOrder(templates.documents)) groups.get(template.FormCategory)?.push(template);
    return groups;
  }, [templates.documents]);

  async function resetAll() {
    if (await reset.run({ companyId })) setConfirmingReset(false);
  }

  return (
    <Screen
      title={t('title')}
      loading={templates.loading}
      actions={
        <>
          <Link className="button primary" to="/dashboard/formbuilder/$templateID" params={{ templateID: 'new' }}>
            {t('list.newForm')}
          </Link>
          <button type="button" className="button" disabled={!online || confirmingReset} aria-describedby={online ? undefined : 'reset-needs-connection'} onClick={() => setConfirmingReset(true)}>
            {t('list.reset')}
          </button>
        </>
      }
    >
      <div className="form-builder">
        {!online && (
          <p id="reset-needs-connection" className="muted">
            {t('list.resetNeedsConnection')}
          </p>
        )}
        {confirmingReset && (
          <div className="card fb-ask">
            {/* The message names the built-in set (server/domains/forms/queries.ts DEFAULT_FORM_TEMPLATES). */}
            <ConfirmPanel
              question={t('list.resetQuestion')}
              message={t('list.resetMessage')}
              confirmLabel={t('list.resetConfirm')}
              busy={reset.busy}
              onConfirm={() => void resetAll()}
              onKeep={() => setConfirmingReset(false)}
            />
          </div>
        )}
        <FormError error={reset.error} banner />

        {templates.documents.length === 0 ? (
          <p className="empty">{t('list.empty')}</p>
        ) : (
          FORM_CATEGORIES.map((category) => <CategorySection key={category} category={category} templates={byCategory.get(category) ?? []} user={user} />)
        )}
      </div>
    </Screen>
  );
}

function CategorySection({ category, templates, user }: { category: FormCategory; templates: TemplateDoc[]; user: SignedInUser }) {
  const { t } = useTranslation(formsTexts);
  const headingId = `category-${category.replace(/\W+/g, '-')}`;
  const name = categoryName(category);
  return (
    <section className="fb-category" aria-labelledby={headingId}>
      <h2 id={headingId}>{name}</h2>
      {templates.length === 0 ? (
        <p className="muted">{t('list.noneInCategory', { category: name })}</p>
      ) : (
        <ul className="fb-templates" aria-label={t('list.categoryForms', { category: name })}>
          {templates.map((template) => (
            <TemplateCard key={template.id} template={template} user={user} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TemplateCard({ template, user }: { template: TemplateDoc; user: SignedInUser }) {
  const { t } = useTranslation(formsTexts);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const makeDefault = useAction(updateDefaultTemplate, m.defaultSet);
  const remove = useAction(deleteTemplate, m.deleted);
  const active = template.fields.filter((field) => Number(field.IsActive) === 1);
  const activeIds = new Set(active.map((field) => String(field.FieldID)));
  const rules = template.hide_rules.filter((rule) => activeIds.has(String(rule.form_field_hidden_FieldID))).length;
  const required = active.filter((field) => Number(field.IsRequired) === 1).length;
  const params = { templateID: String(template.TemplateID), templateName: template.TemplateName };

  return (
    <li className="card fb-template" aria-label={template.TemplateName}>
      <div className="fb-template-head">
        <h3>{template.TemplateName}</h3>
        {template.IsDefault && <span className="chip default">{t('list.defaultOf', { category: categoryName(template.FormCategory) })}</span>}
        {!reachedServer(template) && <span className="chip waiting">{t('list.waiting')}</span>}
      </div>
      <p className="fb-facts">
        <span>{t('list.fieldCount', { count: active.length })}</span>
        {required > 0 && <span>{t('list.requiredCount', { number: required })}</span>}
        {rules > 0 && <span>{t('list.ruleCount', { count: rules })}</span>}
      </p>
      {confirmingDelete ? (
        <ConfirmPanel
          question={t('list.deleteQuestion', { form: template.TemplateName })}
          message={t('list.deleteMessage', { form: template.TemplateName })}
          busy={remove.busy}
          onConfirm={() => void remove.run({ templateId: template.TemplateID })}
          onKeep={() => setConfirmingDelete(false)}
        />
      ) : (
        <div className="fb-actions">
          <Link className="button primary" to="/dashboard/formbuilder/$templateID/$templateName" params={params}>
            {t('list.edit')}
          </Link>
          <Link className="button" to="/dashboard/formbuilder/submit/$templateID/$templateName" params={params}>
            {t('list.fill')}
          </Link>
          {!template.IsDefault && (
            <button
              type="button"
              className="button"
              disabled={makeDefault.busy}
              onClick={() => void makeDefault.run({ templateId: template.TemplateID, companyId: user.companyId, templateType: template.FormCategory })}
            >
              {t('list.makeDefault')}
            </button>
          )}
          <button type="button" className="button danger" onClick={() => setConfirmingDelete(true)}>
            {t('list.delete')}
          </button>
        </div>
      )}
      <FormError error={makeDefault.error ?? remove.error} />
    </li>
  );
}
