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
import { FREQUENCIES, KEYWORD_FIELD_TYPES, WEEKDAYS } from '../../../common/messages/automations';
import { FORM_CATEGORIES } from '../../../common/messages/forms';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { type Notification, saveNotification } from '../../api/automations';
import { type SignedInUser, useAction } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { useCatalogue } from '../plant-problems/useCatalogue';
import type { RoomDoc } from '../rooms/model';
import { ChoiceOptions, Field, FormButtons, FormError } from '../shell/forms';
import { draftOf, FREQUENCY_LABELS, KIND_LABELS, KINDS, METHOD_LABELS, METHODS, NEW_RULE, type RuleFormValues, valuesOf, webhookOrigin } from './model';

export type TemplateDoc = LocalDocument & FormTemplateRecord;

/** The templates the server knows (an integer id), by name. */
export const serverTemplates = (templates: readonly TemplateDoc[]) =>
  templates.filter((template) => typeof template.TemplateID === 'number').sort((a, b) => a.TemplateName.localeCompare(b.TemplateName));

export function RuleForm(props: { user: SignedInUser; rule?: Notification; templates: readonly TemplateDoc[]; rooms: readonly RoomDoc[]; onSaved: () => void; onCancel: () => void }) {
  const { user, rule } = props;
  const [values, setValues] = useState<RuleFormValues>(() => (rule ? valuesOf(rule) : NEW_RULE));
  const saving = useAction(saveNotification, rule ? 'Automation saved.' : 'Automation created.', { inlineErrors: true });
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
    <Field label="Room">
      <select value={values.roomId} onChange={(event) => set({ roomId: event.target.value })}>
        <option value="">Any room</option>
        {rooms.map((room) => (
          <option key={room.id} value={String(room.RoomID)}>
            {room.Name ?? 'Unnamed room'}
          </option>
        ))}
      </select>
    </Field>
  );
  const templateChoice = (
    <Field label="Form">
      <select value={values.templateId} onChange={(event) => set({ templateId: event.target.value, formFieldId: '' })}>
        <option value="">Choose a form</option>
        {templates.map((each) => (
          <option key={each.id} value={String(each.TemplateID)}>
            {each.TemplateName} ({each.FormCategory})
          </option>
        ))}
      </select>
    </Field>
  );
  const timeChoice = (
    <Field label="Time (UTC)">
      <input type="time" value={values.notificationTime} onChange={(event) => set({ notificationTime: event.target.value })} />
    </Field>
  );
  const weekdayChoice = (
    <Field label="Day of the week">
      <select value={values.weekday} onChange={(event) => set({ weekday: event.target.value })}>
        {WEEKDAYS.map((day, index) => (
          <option key={day} value={String(index + 1)}>
            {day}
          </option>
        ))}
      </select>
    </Field>
  );

  return (
    <form className="form rule-form" onSubmit={submit} aria-label={rule ? 'Edit automation' : 'New automation'} noValidate>
      <h2>{rule ? 'Edit automation' : 'New automation'}</h2>
      <div className="rule-form-grid">
        <Field label="When">
          <select value={values.kind} onChange={(event) => set({ kind: event.target.value as RuleFormValues['kind'] })}>
            <ChoiceOptions choices={KINDS} labels={KIND_LABELS} />
          </select>
        </Field>
        <Field label="Send by">
          <select value={values.method} onChange={(event) => set({ method: event.target.value as RuleFormValues['method'] })}>
            <ChoiceOptions choices={METHODS} labels={METHOD_LABELS} />
          </select>
        </Field>
      </div>

      {values.method === 'email' && (
        <Field label="E-mail addresses (several separated by ;)">
          <input type="text" inputMode="email" autoComplete="off" value={values.emailRecipient} onChange={(event) => set({ emailRecipient: event.target.value })} />
        </Field>
      )}
      {values.method === 'Slack' && (
        <Field label="Slack webhook address">
          <input
            type="url"
            autoComplete="off"
            value={values.slackWebhookUrl}
            placeholder={rule?.method === 'Slack' ? `Saved: ${webhookOrigin(rule.slack_webhook_url)}/… (leave blank to keep it)` : 'https://hooks.slack.com/services/…'}
            onChange={(event) => set({ slackWebhookUrl: event.target.value })}
          />
        </Field>
      )}
      {values.method === 'Microsoft Teams' && (
        <Field label="Microsoft Teams webhook address">
          <input
            type="url"
            autoComplete="off"
            value={values.teamsWebhookUrl}
            placeholder={rule?.method === 'Microsoft Teams' ? `Saved: ${webhookOrigin(rule.teams_webhook_url)}/… (leave blank to keep it)` : 'https://…webhook.office.com/…'}
            onChange={(event) => set({ teamsWebhookUrl: event.target.value })}
          />
        </Field>
      )}

      {values.kind === 'problem_recorded' && (
        <div className="rule-form-grid">
          <Field label="Problem type">
            <input type="text" list={problemTypesId} value={values.problemType} onChange={(event) => set({ problemType: event.target.value })} />
          </Field>
          <datalist id={problemTypesId}>
            {catalogue?.problems.map((problem) => <option key={problem.id} value={problem.name} />)}
          </datalist>
          {roomChoice}
        </div>
      )}
      {values.kind === 'form_submitted' && (
        <Field label="Form category">
          <select value={values.formCategory} onChange={(event) => set({ formCategory: event.target.value })}>
            {FORM_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </Field>
      )}
      {values.kind === 'keyword' && (
        <div className="rule-form-grid">
          {templateChoice}
          <Field label="Field">
            <select value={values.formFieldId} disabled={!template} onChange={(event) => set({ formFieldId: event.target.value })}>
              <option value="">{template ? (watchable.length ? 'Choose a field' : 'This form has no text field') : 'Choose a form first'}</option>
              {watchable.map((field) => (
                <option key={String(field.FieldID)} value={String(field.FieldID)}>
                  {field.FieldName} ({field.FieldType})
                </option>
              ))}
            </select>
          </Field>
          <Field label="Keyword">
            <input type="text" value={values.keyword} onChange={(event) => set({ keyword: event.target.value })} />
          </Field>
        </div>
      )}
      {(values.kind === 'task_assigned' || values.kind === 'task_done') && (
        <p className="muted">{values.kind === 'task_assigned' ? 'Sent whenever a task is assigned to someone.' : 'Sent whenever a task is marked done.'}</p>
      )}
      {values.kind === 'template_due' && (
        <div className="rule-form-grid">
          {templateChoice}
          {roomChoice}
          <Field label="How often">
            <select value={values.frequency} onChange={(event) => set({ frequency: event.target.value as RuleFormValues['frequency'] })}>
              <ChoiceOptions choices={FREQUENCIES} labels={FREQUENCY_LABELS} />
            </select>
          </Field>
          {values.frequency === 'weekly' && weekdayChoice}
          {values.frequency === 'monthly' && (
            <Field label="Day of the month">
              <input type="number" inputMode="numeric" min={1} max={31} value={values.dayOfMonth} onChange={(event) => set({ dayOfMonth: event.target.value })} />
            </Field>
          )}
          {timeChoice}
        </div>
      )}
      {values.kind === 'weekly_report' && (
        <div className="rule-form-grid">
          <Field label="Weeks summarised">
            <input type="number" inputMode="numeric" min={1} max={52} value={values.reportDurationWeeks} onChange={(event) => set({ reportDurationWeeks: event.target.value })} />
          </Field>
          {weekdayChoice}
          {timeChoice}
        </div>
      )}

      <FormError error={saving.error} />
      <FormButtons submitLabel={rule ? 'Save automation' : 'Create automation'} busy={saving.busy} busyLabel="Saving…" onCancel={props.onCancel} />
    </form>
  );
}
