/**
 * Creating or editing one rule: its kind, its method and the recipient that method needs (spec part 2
 * §5), and the kind's own fields. Saved online (src/api/automations.ts); the schemas' and the server's
 * messages show under the form.
 *
 * Where the spec is silent:
 * - Forms and fields come from the tablet's copy of the company's templates; a form made on this tablet
 *   and not yet on the server has no id the server knows, so it is not offered until it arrives.
 * - A problem type is free text (the server matches the type recorded), with the catalogue's names offered.
 * - A saved Slack or Teams address is not shown again (it is the channel's secret): left blank, it is kept.
 */
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FREQUENCIES, KEYWORD_FIELD_TYPES, WEEKDAYS } from '../../../common/messages/automations';
import { FORM_CATEGORIES } from '../../../common/messages/forms';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { type Notification, saveNotification } from '../../api/automations';
import { type SignedInUser, useAction } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { useCatalogue } from '../plant-problems/useCatalogue';
import type { RoomDoc } from '../rooms/model';
import { ChoiceOptions, Field, FormButtons, FormError } from '../shell/forms';
import { categoryName, draftOf, fieldTypeName, frequencyLabels, kindLabels, KINDS, methodLabels, METHODS, NEW_RULE, type RuleFormValues, valuesOf, webhookOrigin, weekdayLabel } from './model';
import { automationsTexts } from './texts';

export type TemplateDoc = LocalDocument & FormTemplateRecord;

/** What a webhook address looks like (the field's example, an address, not words). */
const SLACK_EXAMPLE = 'https://hooks.slack.com/services/…';
const TEAMS_EXAMPLE = 'https://…webhook.office.com/…';

/** The templates the server knows (an integer id), by name. */
export const serverTemplates = (templates: readonly TemplateDoc[]) =>
  templates.filter((template) => typeof template.TemplateID === 'number').sort((a, b) => a.TemplateName.localeCompare(b.TemplateName));

export function RuleForm(props: { user: SignedInUser; rule?: Notification; templates: readonly TemplateDoc[]; rooms: readonly RoomDoc[]; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation(automationsTexts);
  const { user, rule } = props;
  const [values, setValues] = useState<RuleFormValues>(() => (rule ? valuesOf(rule) : NEW_RULE));
  const saving = useAction(saveNotification, rule ? t('form.saved') : t('form.created'), { inlineErrors: true });
  const problemTypesId = useId();
  const { catalogue } = useCatalogue();
  const set = (patch: Partial<RuleFormValues>) => setValues((current) => ({ ...current, ...patch }));
  const templates = serverTemplates(props.templates);
  const template = templates.find((each) => String(each.TemplateID) === values.templateId);
  const watchable = (template?.fields ?? []).filter((field) => typeof field.FieldID === 'number' && KEYWORD_FIELD_TYPES.includes(field.FieldType));
  const rooms = props.rooms.filter((room) => typeof room.RoomID === 'number');

  function submit(event: FormEvent) {
    event.preventDefault();
    void saving.run(draftOf(values, user.userId, rule)).then((done) => done && props.onSaved());
  }

  const roomChoice = (
    <Field label={t('form.room')}>
      <select value={values.roomId} onChange={(event) => set({ roomId: event.target.value })}>
        <option value="">{t('form.anyRoom')}</option>
        {rooms.map((room) => (
          <option key={room.id} value={String(room.RoomID)}>
            {room.Name ?? t('form.unnamedRoom')}
          </option>
        ))}
      </select>
    </Field>
  );
  const templateChoice = (
    <Field label={t('form.form')}>
      <select value={values.templateId} onChange={(event) => set({ templateId: event.target.value, formFieldId: '' })}>
        <option value="">{t('form.chooseForm')}</option>
        {templates.map((each) => (
          <option key={each.id} value={String(each.TemplateID)}>
            {each.TemplateName} ({categoryName(each.FormCategory)})
          </option>
        ))}
      </select>
    </Field>
  );
  const timeChoice = (
    <Field label={t('form.time')}>
      <input type="time" value={values.notificationTime} onChange={(event) => set({ notificationTime: event.target.value })} />
    </Field>
  );
  const weekdayChoice = (
    <Field label={t('form.weekday')}>
      <select value={values.weekday} onChange={(event) => set({ weekday: event.target.value })}>
        {WEEKDAYS.map((day, index) => (
          <option key={day} value={String(index + 1)}>
            {weekdayLabel(day)}
          </option>
        ))}
      </select>
    </Field>
  );

  return (
    <form className="form rule-form" onSubmit={submit} aria-label={rule ? t('form.editTitle') : t('form.newTitle')} noValidate>
      <h2>{rule ? t('form.editTitle') : t('form.newTitle')}</h2>
      <div className="rule-form-grid">
        <Field label={t('form.when')}>
          <select value={values.kind} onChange={(event) => set({ kind: event.target.value as RuleFormValues['kind'] })}>
            <ChoiceOptions choices={KINDS} labels={kindLabels()} />
          </select>
        </Field>
        <Field label={t('form.sendBy')}>
          <select value={values.method} onChange={(event) => set({ method: event.target.value as RuleFormValues['method'] })}>
            <ChoiceOptions choices={METHODS} labels={methodLabels()} />
          </select>
        </Field>
      </div>

      {values.method === 'email' && (
        <Field label={t('form.emails')}>
          <input type="text" inputMode="email" autoComplete="off" value={values.emailRecipient} onChange={(event) => set({ emailRecipient: event.target.value })} />
        </Field>
      )}
      {values.method === 'Slack' && (
        <Field label={t('form.slack')}>
          <input
            type="url"
            autoComplete="off"
            value={values.slackWebhookUrl}
            placeholder={rule?.method === 'Slack' ? t('form.savedWebhook', { origin: webhookOrigin(rule.slack_webhook_url) }) : SLACK_EXAMPLE}
            onChange={(event) => set({ slackWebhookUrl: event.target.value })}
          />
        </Field>
      )}
      {values.method === 'Microsoft Teams' && (
        <Field label={t('form.teams')}>
          <input
            type="url"
            autoComplete="off"
            value={values.teamsWebhookUrl}
            placeholder={rule?.method === 'Microsoft Teams' ? t('form.savedWebhook', { origin: webhookOrigin(rule.teams_webhook_url) }) : TEAMS_EXAMPLE}
            onChange={(event) => set({ teamsWebhookUrl: event.target.value })}
          />
        </Field>
      )}

      {values.kind === 'problem_recorded' && (
        <div className="rule-form-grid">
          <Field label={t('form.problemType')}>
            <input type="text" list={problemTypesId} value={values.problemType} onChange={(event) => set({ problemType: event.target.value })} />
          </Field>
          <datalist id={problemTypesId}>
            {catalogue?.problems.map((problem) => <option key={problem.id} value={problem.name} />)}
          </datalist>
          {roomChoice}
        </div>
      )}
      {values.kind === 'form_submitted' && (
        <Field label={t('form.formCategory')}>
          <select value={values.formCategory} onChange={(event) => set({ formCategory: event.target.value })}>
            {FORM_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {categoryName(category)}
              </option>
            ))}
          </select>
        </Field>
      )}
      {values.kind === 'keyword' && (
        <div className="rule-form-grid">
          {templateChoice}
          <Field label={t('form.field')}>
            <select value={values.formFieldId} disabled={!template} onChange={(event) => set({ formFieldId: event.target.value })}>
              <option value="">{template ? (watchable.length ? t('form.chooseField') : t('form.noTextField')) : t('form.chooseFormFirst')}</option>
              {watchable.map((field) => (
                <option key={String(field.FieldID)} value={String(field.FieldID)}>
                  {field.FieldName} ({fieldTypeName(field.FieldType)})
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('form.keyword')}>
            <input type="text" value={values.keyword} onChange={(event) => set({ keyword: event.target.value })} />
          </Field>
        </div>
      )}
      {(values.kind === 'task_assigned' || values.kind === 'task_done') && (
        <p className="muted">{values.kind === 'task_assigned' ? t('form.taskAssigned') : t('form.taskDone')}</p>
      )}
      {values.kind === 'template_due' && (
        <div className="rule-form-grid">
          {templateChoice}
          {roomChoice}
          <Field label={t('form.howOften')}>
            <select value={values.frequency} onChange={(event) => set({ frequency: event.target.value as RuleFormValues['frequency'] })}>
              <ChoiceOptions choices={FREQUENCIES} labels={frequencyLabels()} />
            </select>
          </Field>
          {values.frequency === 'weekly' && weekdayChoice}
          {values.frequency === 'monthly' && (
            <Field label={t('form.dayOfMonth')}>
              <input type="number" inputMode="numeric" min={1} max={31} value={values.dayOfMonth} onChange={(event) => set({ dayOfMonth: event.target.value })} />
            </Field>
          )}
          {timeChoice}
        </div>
      )}
      {values.kind === 'weekly_report' && (
        <div className="rule-form-grid">
          <Field label={t('form.weeks')}>
            <input type="number" inputMode="numeric" min={1} max={52} value={values.reportDurationWeeks} onChange={(event) => set({ reportDurationWeeks: event.target.value })} />
          </Field>
          {weekdayChoice}
          {timeChoice}
        </div>
      )}

      <FormError error={saving.error} />
      <FormButtons submitLabel={rule ? t('form.save') : t('form.create')} busy={saving.busy} busyLabel={t('form.saving')} onCancel={props.onCancel} />
    </form>
  );
}
