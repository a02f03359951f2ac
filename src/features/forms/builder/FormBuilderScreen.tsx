/**
 * The form builder (spec part 2 §2 `formbuilder/{templateID}/{templateName}` and
 * `formbuilder/{templateID}`; `new` as the template id builds a new form; Admins only): a template's
 * name, category and fields, each field's hide-until-link rule, and a preview drawn by the fill
 * screen's own renderer. The draft (draft.ts) stays on this screen until Save, which goes through the
 * form domain functions (save.ts), queued like every change, so a form is built the same offline.
 *
 * Where the spec is silent:
 * - Order: fields move with Move up / Move down, saved or new; Save sends each field's place as its
 *   position.
 * - Removing a saved field takes it off the form on Save (`isActive: false`, its answers stay); until
 *   then it can be put back. A rule that waited for a removed field goes with it (it could never be met).
 * - Category: 'Sticky Trap' marks the sticky-trap count forms; the first form of a category becomes its
 *   default (the server decides), and moving a form to another category makes it stop being the default.
 * - After Save the screen goes back to the list, with a toast; a form saved offline shows there as
 *   waiting to sync. A refused save keeps the draft and shows the domain function's message until the
 *   draft is changed. Leaving with changes not saved asks first, in place (or the browser's own
 *   question on a reload).
 * - A field open in its editor joins the draft with "Add field" / "Keep changes"; Save asks for that
 *   first rather than leave it out.
 */
import { Link, useBlocker, useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_CATEGORIES, type FormCategory, formMessages as m, STICKY_TRAP_CATEGORY } from '../../../../common/messages/forms';
import type { ApiContext } from '../../../api/context';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import { templateOf } from '../../../api/forms';
import { type SignedInUser, useAction, useLocalDocument } from '../../../app/hooks';
import type { LocalDocument } from '../../../db/schemas';
import { i18next } from '../../../i18n/i18n';
import { SignedIn } from '../../session/SignedIn';
import { ConfirmPanel, Field, FormError } from '../../shell/forms';
import { Screen } from '../../shell/Screen';
import { type Draft, type DraftField, blankField, canMove, draftOf, fieldLabel, isChoice, moveField, previewTemplate, putField, removeField, restoreField } from './draft';
import { FieldEditor } from './FieldEditor';
import { Preview } from './Preview';
import { saveDraft } from './save';
import { categoryName, fieldTypeName, formsTexts } from '../texts';
import './builder.css';

type TemplateDoc = LocalDocument & FormTemplateRecord & { category: string };

export function FormBuilderScreen({ templateId }: { templateId: string }) {
  const { t } = useTranslation(formsTexts);
  return <SignedIn title={t('title')}>{(user) => <Builder key={templateId === 'new' ? 'new' : 'saved'} user={user} templateId={templateId} />}</SignedIn>;
}

function Builder({ user, templateId }: { user: SignedInUser; templateId: string }) {
  const { t } = useTranslation(formsTexts);
  const isNew = templateId === 'new';
  const found = useLocalDocument<TemplateDoc>('form_templates', isNew ? undefined : templateId);
  // Another company's form left on a shared tablet is not this Admin's to change; a list still answering for the
  // previous address (just after following a new id) is not this form either.
  const document = found.document && found.document.id === templateId && found.document.CompanyID === user.companyId ? found.document : null;
  const shown = document;
  const title = isNew ? t('builder.newForm') : shown ? t('builder.editForm', { form: shown.TemplateName }) : t('builder.form');

  if (!isNew && !shown && found.loading) return <Screen title={title} loading />;
  if (!isNew && !shown) {
    return (
      <Screen title={title} actions={<BackToList />} empty={t('builder.notOnTablet')} />
    );
  }
  return <Editor user={user} title={title} template={shown ? templateOf(shown) : null} />;
}

function BackToList() {
  const { t } = useTranslation(formsTexts);
  return (
    <Link className="button" to="/dashboard/formbuilder">
      {t('builder.allForms')}
    </Link>
  );
}

type Tab = 'fields' | 'preview';
/** What is being edited: a field of the draft (by key), a new field, or nothing. */
type Editing = { key: string; field: DraftField; isNew: boolean } | null;

function Editor({ user, title, template }: { user: SignedInUser; title: string; template: FormTemplateRecord | null }) {
  const { t } = useTranslation(formsTexts);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => draftOf(template));
  const [editing, setEditing] = useState<Editing>(null);
  const [tab, setTab] = useState<Tab>('fields');
  const [notice, setNotice] = useState<string | null>(null);
  const [errorStale, setErrorStale] = useState(false);
  // Refs, not state: the router asks the blocker at the moment of leaving, after a save has just passed.
  const touched = useRef(false);
  const leaving = useRef(false);
  const blocker = useBlocker({
    // Following a form made offline to its server id stays on the builder: not a leave.
    shouldBlockFn: ({ next }) => touched.current && !leaving.current && !next.fullPath.startsWith('/dashboard/formbuilder/$templateID'),
    enableBeforeUnload: () => touched.current && !leaving.current,
    withResolver: true,
  });

  const save = useAction(
    useCallback((apiContext: ApiContext, current: Draft) => saveDraft(apiContext, current, user.companyId, setDraft), [user.companyId]),
    draft.templateId === null ? m.saved : m.updated,
  );
  const untitled = t('builder.newForm');
  const preview = useMemo(() => previewTemplate(draft, user.companyId, untitled), [draft, user.companyId, untitled]);
  const savedTemplate = draft.templateId !== null;

  /** A change the Admin makes: the draft now differs from what is saved, and an earlier save's error no longer applies. */
  function edit(update: (current: Draft) => Draft) {
    setDraft(update);
    touched.current = true;
    setErrorStale(true);
  }

  async function saveForm() {
    if (editing) {
      // A field open in its editor is not in the draft yet: saving now would leave it out without a word.
      setTab('fields');
      setNotice(t('builder.finishEditing', { field: editing.isNew ? t('builder.theNewField') : editing.field.name }));
      return;
    }
    setErrorStale(false);
    if (await save.run(draft)) {
      leaving.current = true;
      void navigate({ to: '/dashboard/formbuilder' });
    }
  }

  function keepField(field: DraftField) {
    edit((current) => putField(current, field));
    setEditing(null);
    setNotice(null);
  }

  function remove(field: DraftField, index: number) {
    const result = removeField(draft, field.key);
    edit(() => result.draft);
    if (editing?.key === field.key) setEditing(null);
    const name = fieldLabel(field, index);
    const taken = field.savedId !== null ? t('builder.takenOff', { field: name }) : t('builder.removed', { field: name });
    setNotice(result.freed.length > 0 ? t('builder.freed', { count: result.freed.length, taken, fields: result.freed.join(', '), field: name }) : taken);
  }

  return (
    <Screen
      title={title}
      actions={
        <>
          <BackToList />
          <button type="button" className="button primary" disabled={save.busy} onClick={() => void saveForm()}>
            {save.busy ? t('builder.saving') : t('builder.save')}
          </button>
        </>
      }
    >
      <div className="form-builder">
        {blocker.status === 'blocked' && (
          <div className="card fb-ask">
            <ConfirmPanel
              question={t('builder.leaveQuestion')}
              message={t('builder.leaveMessage')}
              confirmLabel={t('builder.leave')}
              keepLabel={t('builder.stay')}
              busy={false}
              onConfirm={blocker.proceed}
              onKeep={blocker.reset}
            />
          </div>
        )}
        <FormError error={errorStale ? null : save.error} banner />
        <div className="form card fb-details">
          <div className="fb-row">
            <Field label={t('builder.formName')}>
              <input value={draft.name} onChange={(event) => edit((current) => ({ ...current, name: event.target.value }))} autoComplete="off" autoFocus={!savedTemplate} />
            </Field>
            <Field label={t('builder.category')}>
              <select value={draft.category} onChange={(event) => edit((current) => ({ ...current, category: event.target.value as FormCategory }))} aria-describedby="category-hint">
                {FORM_CATEGORIES.map((category) => (
                  <option key={category} value={category}>
                    {categoryName(category)}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <p id="category-hint" className="muted fb-hint">
            {draft.category === STICKY_TRAP_CATEGORY
              ? t('builder.stickyTrapHint')
              : t('builder.categoryHint')}
          </p>
        </div>

        <div className="fb-tabs" role="tablist" aria-label={t('builder.views')}>
          <button type="button" role="tab" id="tab-fields" aria-controls="panel-fields" aria-selected={tab === 'fields'} className={`button${tab === 'fields' ? ' primary' : ''}`} onClick={() => setTab('fields')}>
            {t('builder.fieldsTab', { number: draft.fields.length })}
          </button>
          <button type="button" role="tab" id="tab-preview" aria-controls="panel-preview" aria-selected={tab === 'preview'} className={`button${tab === 'preview' ? ' primary' : ''}`} onClick={() => setTab('preview')}>
            {t('builder.previewTab')}
          </button>
        </div>

        {tab === 'preview' ? (
          <div role="tabpanel" id="panel-preview" aria-labelledby="tab-preview">
            <Preview template={preview} />
          </div>
        ) : (
          <div role="tabpanel" id="panel-fields" aria-labelledby="tab-fields" className="fb-fields-panel">
            {notice && (
              <p className="banner" role="status">
                {notice}
              </p>
            )}
            {draft.fields.length === 0 && !editing && <p className="empty">{t('builder.noFields')}</p>}
            <ol className="fb-fields" aria-label={t('builder.fields')}>
              {draft.fields.map((field, index) =>
                editing?.key === field.key ? (
                  <li key={field.key}>
                    <FieldEditor field={editing.field} draft={draft} isNew={false} onKeep={keepField} onCancel={() => setEditing(null)} />
                  </li>
                ) : (
                  <FieldRow
                    key={field.key}
                    field={field}
                    index={index}
                    draft={draft}
                    onMove={(step) => edit((current) => moveField(current, index, step))}
                    onEdit={() => setEditing({ key: field.key, field, isNew: false })}
                    onRemove={() => remove(field, index)}
                  />
                ),
              )}
            </ol>
            {editing?.isNew ? (
              <FieldEditor field={editing.field} draft={draft} isNew onKeep={keepField} onCancel={() => setEditing(null)} />
            ) : (
              <button
                type="button"
                className="button fb-add"
                onClick={() => {
                  const field = blankField();
                  setEditing({ key: field.key, field, isNew: true });
                  setNotice(null);
                }}
              >
                {t('builder.addField')}
              </button>
            )}
            {draft.removed.length > 0 && (
              <section className="fb-removed" aria-label={t('builder.takenOffWhenSaved')}>
                <h2>{t('builder.takenOffWhenSaved')}</h2>
                <ul>
                  {draft.removed.map((field) => (
                    <li key={field.key}>
                      <span>{field.name}</span>
                      <button type="button" className="button" onClick={() => edit((current) => restoreField(current, field.key))}>
                        {t('builder.putBack', { field: field.name })}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </div>
        )}
      </div>
    </Screen>
  );
}

/** What a field's rule says, in the reader's language (called at render). */
function ruleText(field: DraftField, draft: Draft): string | null {
  if (!field.rule) return null;
  const index = draft.fields.findIndex((each) => each.key === field.rule!.linkedKey);
  const linked = draft.fields[index];
  if (!linked) return null;
  const name = fieldLabel(linked, index);
  return field.rule.input.trim()
    ? i18next.t('builder.showsWhenIs', { ns: formsTexts, field: name, answer: field.rule.input.trim() })
    : i18next.t('builder.showsWhenAnswered', { ns: formsTexts, field: name });
}

function FieldRow(props: { field: DraftField; index: number; draft: Draft; onMove: (step: -1 | 1) => void; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation(formsTexts);
  const { field, index, draft } = props;
  const name = fieldLabel(field, index);
  const rule = ruleText(field, draft);
  return (
    <li className="card fb-field" aria-label={name}>
      <div className="fb-field-main">
        <h2>
          <span className="fb-position">{index + 1}.</span> {name}
        </h2>
        <p className="fb-facts">
          <span>{fieldTypeName(field.type)}</span>
          {field.required && <span className="chip required">{t('builder.required')}</span>}
          {draft.templateId !== null && field.savedId === null && <span className="chip new">{t('builder.notSaved')}</span>}
          {isChoice(field.type) && <span className="fb-options">{field.options.join(' · ')}</span>}
          {field.cssClass.trim() && <span className="muted">{t('builder.cssClass', { name: field.cssClass.trim() })}</span>}
        </p>
        {rule && <p className="fb-rule-text">{rule}</p>}
      </div>
      {/* Each name starts with the button's text, then says which field ("Move up Notes"). */}
      <div className="fb-actions">
        <button type="button" className="button" disabled={!canMove(draft, index, -1)} onClick={() => props.onMove(-1)} aria-label={t('builder.moveUpNamed', { field: name })}>
          {t('builder.moveUp')}
        </button>
        <button type="button" className="button" disabled={!canMove(draft, index, 1)} onClick={() => props.onMove(1)} aria-label={t('builder.moveDownNamed', { field: name })}>
          {t('builder.moveDown')}
        </button>
        <button type="button" className="button" onClick={props.onEdit} aria-label={t('builder.editNamed', { field: name })}>
          {t('builder.edit')}
        </button>
        <button type="button" className="button danger" onClick={props.onRemove} aria-label={t('builder.removeNamed', { field: name })}>
          {t('builder.remove')}
        </button>
      </div>
    </li>
  );
}
