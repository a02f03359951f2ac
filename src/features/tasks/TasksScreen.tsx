/**
 * Tasks (spec part 1 §2 `tasks`; part 2 §3 "Task", §9; issue 16): the tasks made from observations, read
 * from the tablet's `form_responses` documents (a task travels inside its response), so the list works
 * offline and a change made here shows at once, marked "Waiting to sync" until the server has it.
 *
 * Where the spec is silent:
 * - The list opens on the work not done (open and in progress: model.ts `STATUS_CHOICES`), open first,
 *   then in progress, then done, each by due time then newest (the server's order, byTaskListOrder).
 * - Filters: status, the observation's form, and the assignee (anyone, me, nobody, or a user); "Mine"
 *   is a shortcut for "me". 50 tasks a page (spec §9's default). The choice is in the address, so a
 *   reload or a shared link shows the same.
 * - The tablet holds every task not done, and done ones of the recent window of responses; older done
 *   ones are read from the server on request (OlderDoneTasks).
 */
import { Link } from '@tanstack/react-router';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { reachedServer } from '../../api/records';
import type { SignedInUser } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import { useSyncStatus } from '../../sync/sync-store';
import { useCompanyDoc } from '../plant-moves/places';
import type { CompanyDoc } from '../rooms/model';
import { SignedIn } from '../session/SignedIn';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { usePlaces, useResponsesWithWaitingChanges, useTaskItems } from './hooks';
import {
  ANYONE,
  assigneeText,
  companyPeople,
  DEFAULT_STATUS_CHOICE,
  emptyText,
  MINE,
  matchingTasks,
  NOBODY,
  pageOf,
  personName,
  type Places,
  placeText,
  STATUS_CHOICES,
  type StatusChoice,
  type TaskFilter,
  type TaskItem,
  taskForms,
} from './model';
import { OlderDoneTasks } from './OlderDoneTasks';
import { taskStatusName, tasksTexts } from './texts';
import './tasks.css';

/** The list's filters and page, as the address holds them (absent: the defaults). */
export interface TasksSearch {
  status?: StatusChoice;
  form?: string;
  assignee?: string;
  page?: number;
}

export function TasksScreen(props: { search: TasksSearch; onSearch: (next: TasksSearch) => void }) {
  const { t } = useTranslation(tasksTexts);
  return <SignedIn title={t('title')}>{(user) => <Tasks user={user} {...props} />}</SignedIn>;
}

function Tasks({ user, search, onSearch }: { user: SignedInUser; search: TasksSearch; onSearch: (next: TasksSearch) => void }) {
  const { t } = useTranslation(tasksTexts);
  const { items, loading } = useTaskItems();
  const company = useCompanyDoc(user.companyId);
  const status = search.status ?? DEFAULT_STATUS_CHOICE;
  const formId = search.form ?? null;
  const assignee = search.assignee ?? ANYONE;
  const filter: TaskFilter = useMemo(() => ({ status, formId, assignee }), [status, formId, assignee]);
  const matching = useMemo(() => matchingTasks(items, filter, user.userId), [items, filter, user.userId]);
  const shown = pageOf(matching, search.page ?? 1);
  const places = usePlaces(user.companyId, shown.items, company);
  const pulling = useInitialPull();
  // A filter changed: back to the first page.
  const refine = (patch: TasksSearch) => onSearch({ ...search, ...patch, page: undefined });

  // A new tablet's first pull: the tasks are on their way, not missing.
  if (pulling && items.length === 0) {
    return (
      <Screen title={t('title')} loading={loading}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }

  return (
    <Screen title={t('title')} loading={loading}>
      <TaskFilters user={user} filter={filter} items={items} company={company} onChange={refine} />
      {shown.total === 0 ? (
        <p className="empty">{emptyText(filter)}</p>
      ) : (
        <>
          <p className="task-summary">
            {t('list.summary', { count: shown.total })}
            {shown.pages > 1 && ` · ${t('list.pageOf', { page: shown.page, pages: shown.pages })}`}
          </p>
          <TaskList items={shown.items} places={places} />
        </>
      )}
      {shown.pages > 1 && (
        <nav className="task-pages" aria-label={t('list.pages')}>
          <button type="button" className="button" disabled={shown.page <= 1} onClick={() => onSearch({ ...search, page: shown.page - 1 })}>
            {t('list.previous')}
          </button>
          <span>{t('list.page', { page: shown.page, pages: shown.pages })}</span>
          <button type="button" className="button" disabled={shown.page >= shown.pages} onClick={() => onSearch({ ...search, page: shown.page + 1 })}>
            {t('list.next')}
          </button>
        </nav>
      )}
      {(filter.status === 'done' || filter.status === 'all') && <OlderDoneTasks key={`${filter.formId ?? ''}|${filter.assignee}`} user={user} filter={filter} localItems={items} />}
    </Screen>
  );
}

/** Status, form and assignee (labels beside their selects: a wrapped select would put its value into its name), and "Mine". */
function TaskFilters(props: { user: SignedInUser; filter: TaskFilter; items: TaskItem[]; company: CompanyDoc | null; onChange: (patch: TasksSearch) => void }) {
  const { t } = useTranslation(tasksTexts);
  const { filter, onChange } = props;
  const ids = useId();
  const forms = useMemo(() => taskForms(props.items), [props.items]);
  const people = companyPeople(props.company).filter((person) => person.user_id !== props.user.userId);
  const mine = filter.assignee === MINE || filter.assignee === String(props.user.userId);
  return (
    <div className="card task-filters">
      <div>
        <label htmlFor={`${ids}-status`}>{t('filters.status')}</label>
        <select id={`${ids}-status`} className="control" value={filter.status} onChange={(event) => onChange({ status: event.target.value as StatusChoice })}>
          {STATUS_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`statusChoice.${choice}`)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-form`}>{t('filters.form')}</label>
        <select id={`${ids}-form`} className="control" value={filter.formId ?? ''} onChange={(event) => onChange({ form: event.target.value || undefined })}>
          <option value="">{t('filters.anyForm')}</option>
          {filter.formId !== null && !forms.some((form) => form.id === filter.formId) && <option value={filter.formId}>{t('filters.formWithoutTasks')}</option>}
          {forms.map((form) => (
            <option key={form.id} value={form.id}>
              {form.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-assignee`}>{t('filters.assignedTo')}</label>
        <select id={`${ids}-assignee`} className="control" value={mine ? MINE : filter.assignee} onChange={(event) => onChange({ assignee: event.target.value || undefined })}>
          <option value={ANYONE}>{t('filters.anyone')}</option>
          <option value={MINE}>{t('filters.me')}</option>
          <option value={NOBODY}>{t('nobody')}</option>
          {people.map((person) => (
            <option key={person.user_id} value={String(person.user_id)}>
              {personName(person)}
            </option>
          ))}
        </select>
      </div>
      <div className="task-mine">
        <button type="button" className={`button${mine ? ' primary' : ''}`} aria-pressed={mine} onClick={() => onChange({ assignee: mine ? undefined : MINE })}>
          {t('filters.mine')}
        </button>
      </div>
    </div>
  );
}

function TaskList({ items, places }: { items: TaskItem[]; places: Places }) {
  const { t } = useTranslation(tasksTexts);
  const waiting = useResponsesWithWaitingChanges(items.map(({ response }) => response.id));
  const failed = useSyncStatus((status) => status.failed);
  return (
    <ul className="task-list" aria-label={t('list.label')}>
      {items.map(({ response, task }) => {
        const refused = failed.find((entry) => entry.creates.includes(String(task.task_id)) || entry.creates.includes(response.id))?.error ?? null;
        return (
          <li key={response.id}>
            <Link to="/dashboard/tasks/$taskID" params={{ taskID: String(task.task_id) }} className={`task-item ${task.status}`}>
              <span className="task-item-head">
                <strong className="task-title">{task.title || t('untitled')}</strong>
                <span className={`chip task-status ${task.status}`}>{taskStatusName(task.status)}</span>
                {refused ? (
                  <span className="chip refused" title={translateMessage(refused)}>
                    {t('notAccepted', { reason: translateMessage(refused) })}
                  </span>
                ) : (
                  (waiting.has(response.id) || !reachedServer(response)) && <span className="chip waiting">{t('waitingToSync')}</span>
                )}
              </span>
              <span className="task-item-meta">
                {response.TemplateName} · {placeText(response, places)} · {t('assignedTo', { name: assigneeText(task) })}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
