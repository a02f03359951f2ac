/**
 * Automations (spec part 1 §2 `automations`; part 2 §3, §5, §7, §9; issue 16), for Admins: the
 * company's rules grouped by kind, each with where its message goes, edited, deleted, tested, and its
 * delivery log. Online only (src/api/automations.ts says why): offline the screen says so and shows
 * no copy that could be stale.
 *
 * The route lets only Admins in (src/routes/dashboard/automations.tsx); a session whose role is not
 * Admin still reaching the screen is told so here (the server refuses its calls too).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Notification, deleteNotification, sendTestNotification } from '../../api/automations';
import { type SignedInUser, useAction, useLocalQuery } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { useCompanyDoc } from '../plant-moves/places';
import { type RoomDoc, userName } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { DeliveryLog } from './DeliveryLog';
import { useAutomationRules, useDeliveryLog } from './hooks';
import { kindLabels, methodLabels, type Names, recipientText, ruleText, rulesByKind } from './model';
import { RuleForm, type TemplateDoc } from './RuleForm';
import './automations.css';
import { automationsTexts } from './texts';

export function AutomationsScreen() {
  const { t } = useTranslation(automationsTexts);
  return (
    <SignedIn title={t('title')}>
      {(user) =>
        user.isAdmin ? (
          <Automations user={user} />
        ) : (
          <Screen title={t('title')}>
            <p className="empty">{t('adminsOnly')}</p>
          </Screen>
        )
      }
    </SignedIn>
  );
}

/** What the form edits: nothing, a new rule, or a saved one. */
type Editing = null | 'new' | Notification;

function Automations({ user }: { user: SignedInUser }) {
  const { t } = useTranslation(automationsTexts);
  const online = useSyncStatus((status) => status.online);
  const rules = useAutomationRules(user.userId);
  const [editing, setEditing] = useState<Editing>(null);
  const templates = useLocalQuery<TemplateDoc>('form_templates', { CompanyID: user.companyId }, `form_templates-${user.companyId}`).documents;
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: user.companyId }, `rooms-${user.companyId}`).documents;
  const company = useCompanyDoc(user.companyId);
  const names: Names = {
    template: (id) => templates.find((template) => template.TemplateID === id)?.TemplateName ?? null,
    field: (templateId, fieldId) => templates.find((template) => template.TemplateID === templateId)?.fields.find((field) => field.FieldID === fieldId)?.FieldName ?? null,
    room: (id) => rooms.find((room) => room.RoomID === id)?.Name ?? null,
    user: (id) => userName(company, id),
  };
  const saved = () => {
    setEditing(null);
    rules.reload();
  };
  const form = (rule?: Notification) => <RuleForm user={user} rule={rule} templates={templates} rooms={rooms} onSaved={saved} onCancel={() => setEditing(null)} />;
  const groups = rulesByKind(rules.data ?? []);

  return (
    <Screen
      title={t('title')}
      offline={t('offline')}
      actions={
        online && editing === null ? (
          <button type="button" className="button primary" onClick={() => setEditing('new')}>
            {t('new')}
          </button>
        ) : null
      }
      loading={online && rules.loading && rules.data === null}
      error={rules.error}
      empty={online && rules.data?.length === 0 && editing !== 'new' ? t('empty') : null}
    >
      {online && (
        <div className="automations">
          {rules.error && (
            <button type="button" className="button" onClick={rules.reload}>
              {t('tryAgain')}
            </button>
          )}
          {editing === 'new' && form()}
          {groups.map((group) => (
            <section key={group.kind} className="rule-group" aria-labelledby={`kind-${group.kind}`}>
              <h2 id={`kind-${group.kind}`}>{kindLabels()[group.kind]}</h2>
              <ul className="rule-list">
                {group.rules.map((rule) =>
                  editing !== null && editing !== 'new' && editing.id === rule.id ? (
                    <li key={rule.id} className="rule-card card">
                      {form(rule)}
                    </li>
                  ) : (
                    <RuleCard key={rule.id} rule={rule} names={names} user={user} onEdit={() => setEditing(rule)} onDeleted={rules.reload} />
                  ),
                )}
              </ul>
            </section>
          ))}
        </div>
      )}
    </Screen>
  );
}

/** A rule: what fires it, where it goes, and its actions (edit, delete, send a test, its log). */
function RuleCard({ rule, names, user, onEdit, onDeleted }: { rule: Notification; names: Names; user: SignedInUser; onEdit: () => void; onDeleted: () => void }) {
  const { t } = useTranslation(automationsTexts);
  const [confirming, setConfirming] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const [testId, setTestId] = useState<number | null>(null);
  const log = useDeliveryLog(rule.id, logOpen);
  const removing = useAction(deleteNotification, t('card.deleted'), { inlineErrors: true });
  const testing = useAction(async (context, notificationId: number) => {
    setTestId(await sendTestNotification(context, { notificationId }));
    setLogOpen(true);
    log.reload();
  }, undefined, { inlineErrors: true });
  const description = ruleText(rule, names);
  const madeBy = rule.user_id === null ? null : names.user(rule.user_id);

  return (
    <li className="rule-card card">
      <h3 className="rule-title">
        {description}
      </h3>
      <p className="rule-recipient">
        <span className="chip rule-method">{methodLabels()[rule.method]}</span> {t('card.to', { recipient: recipientText(rule) })}
      </p>
      {madeBy && <p className="muted rule-meta">{t('card.savedBy', { name: madeBy })}</p>}
      {confirming ? (
        <ConfirmPanel
          question={t('card.deleteQuestion', { rule: description })}
          message={t('card.deleteMessage')}
          confirmLabel={t('card.deleteConfirm')}
          busy={removing.busy}
          onKeep={() => setConfirming(false)}
          onConfirm={() => void removing.run({ notificationId: rule.id, userId: user.userId, trigger: rule.trigger }).then((done) => done && onDeleted())}
        />
      ) : (
        <div className="form-actions rule-actions">
          <button type="button" className="button" onClick={onEdit}>
            {t('edit')}
          </button>
          <button type="button" className="button" disabled={testing.busy} onClick={() => void testing.run(rule.id)}>
            {testing.busy ? t('card.sending') : t('card.sendTest')}
          </button>
          <button type="button" className="button" aria-expanded={logOpen} onClick={() => setLogOpen((open) => !open)}>
            {logOpen ? t('card.hideLog') : t('card.showLog')}
          </button>
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {t('delete')}
          </button>
        </div>
      )}
      {testId !== null && (
        <p className="rule-test" role="status">
          {t('card.testQueued')}
        </p>
      )}
      <FormError error={testing.error ?? removing.error} />
      {logOpen && <DeliveryLog log={log} ruleName={description} highlight={testId} />}
    </li>
  );
}
