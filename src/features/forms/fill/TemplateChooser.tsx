/**
 * The company's forms to fill, from the local store (so the list is there offline): by category, the
 * category's default first, each a link to the fill screen for the room or the boxes given.
 */
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { useLocalQuery } from '../../../app/hooks';
import type { LocalDocument } from '../../../db/schemas';
import { categoryName, formsTexts } from '../texts';
import { templatesInOrder } from './model';
import '../forms.css';

type TemplateDoc = LocalDocument & FormTemplateRecord;

/** `search` names the room and/or boxes; server ids as numbers keep the address plain (`room=12`). */
export function TemplateChooser(props: { companyId: number; search: { room?: string | number; boxes?: string | number }; label?: string }) {
  const { t } = useTranslation(formsTexts);
  const list = useLocalQuery<TemplateDoc>('form_templates', { CompanyID: props.companyId }, `templates-${props.companyId}`);
  const templates = useMemo(() => templatesInOrder(list.documents), [list.documents]);
  if (list.loading) return <p className="muted">{t('chooser.loading')}</p>;
  if (templates.length === 0) return <p className="muted">{t('chooser.empty')}</p>;
  return (
    <ul className="template-choices" aria-label={props.label ?? t('chooser.label')}>
      {templates.map((template) => (
        <li key={template.id}>
          <Link
            className="button template-choice"
            to="/dashboard/formbuilder/submit/$templateID/$templateName"
            params={{ templateID: String(template.TemplateID), templateName: template.TemplateName }}
            search={props.search}
          >
            <span className="template-name">{template.TemplateName}</span>
            <span className="template-category">
              {template.IsDefault ? t('chooser.categoryDefault', { category: categoryName(template.FormCategory) }) : categoryName(template.FormCategory)}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
