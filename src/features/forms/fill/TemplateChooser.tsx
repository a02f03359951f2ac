/**
 * The company's forms to fill, from the local store (so the list is there offline): by category, the
 * category's default first, each a link to the fill screen for the room or the boxes given.
 */
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { useLocalQuery } from '../../../app/hooks';
import type { LocalDocument } from '../../../db/schemas';
import { categoryLabel, templatesInOrder } from './model';
import '../forms.css';

type TemplateDoc = LocalDocument & FormTemplateRecord;

/** `search` names the room and/or boxes; server ids as numbers keep the address plain (`room=12`). */
export function TemplateChooser(props: { companyId: number; search: { room?: string | number; boxes?: string | number }; label?: string }) {
  const list = useLocalQuery<TemplateDoc>('form_templates', { CompanyID: props.companyId }, `templates-${props.companyId}`);
  const templates = useMemo(() => templatesInOrder(list.documents), [list.documents]);
  if (list.loading) return <p className="muted">Loading the forms…</p>;
  if (templates.length === 0) return <p className="muted">No forms on this tablet yet. An Admin builds them in the form builder.</p>;
  return (
    <ul className="template-choices" aria-label={props.label ?? 'Forms to fill'}>
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
              {categoryLabel(template.FormCategory)}
              {template.IsDefault ? ' · default' : ''}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
