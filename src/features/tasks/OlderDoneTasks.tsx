/**
 * Done tasks older than the tablet keeps, read from the server on request (get_task_form_responses,
 * status done, the list's form and assignee), a page of TASK_PER_PAGE_MAX at a time. The tablet holds
 * every task not done however old, and the responses changed within the pull's window, so tasks done
 * within it (server/domains/forms/collection.ts); tasks the tablet holds are not listed again here.
 *
 * Decision: they are shown as a record (title, form, who, when done) without opening a task's screen,
 * which works from the tablet's copy of the response; reopening an old task is done online elsewhere
 * or by an Admin. Loaded tasks stay until the filters change (they are not kept on the tablet).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FORM_RESPONSES_WINDOW_DAYS } from '../../../common/messages/forms';
import { TASK_PER_PAGE_MAX } from '../../../common/messages/tasks';
import type { FormResponseRecord } from '../../../common/schemas/form-responses';
import { getTaskFormResponses, type Task } from '../../api/tasks';
import { type SignedInUser, useAction } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { when } from '../rooms/model';
import { FormError } from '../shell/forms';
import { assigneeText, MINE, NOBODY, type TaskFilter, type TaskItem } from './model';
import { taskStatusName, tasksTexts } from './texts';

interface Loaded {
  items: Array<{ response: FormResponseRecord; task: Task }>;
  /** Pages read so far, and how many done tasks match on the server in all. */
  pages: number;
  total: number;
}

/** The assignee as the server's filter takes it (`user_ID`); nobody has no server filter, so it is applied here. */
function assigneeQuery(filter: TaskFilter, user: SignedInUser): number | undefined {
  if (filter.assignee === MINE) return user.userId;
  return /^\d+$/.test(filter.assignee) ? Number(filter.assignee) : undefined;
}

export function OlderDoneTasks({ user, filter, localItems }: { user: SignedInUser; filter: TaskFilter; localItems: TaskItem[] }) {
  const { t } = useTranslation(tasksTexts);
  const online = useSyncStatus((status) => status.online);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const reading = useAction(
    async (context, page: number) => {
    const answer = await getTaskFormResponses(context, {
      status: 'done',
      page,
      perPage: TASK_PER_PAGE_MAX,
      assigneeUserId: assigneeQuery(filter, user),
      ...(filter.formId === null ? {} : { templateId: filter.formId }),
    });
    if (answer.offline) throw new Error(t('older.noConnection'));
    const items = answer.responses.flatMap((response) => (response.task ? [{ response, task: response.task }] : []));
    setLoaded((before) => ({ items: [...(page === 1 ? [] : (before?.items ?? [])), ...items], pages: page, total: answer.total }));
    },
    undefined,
    { inlineErrors: true },
  );
  // The server names records by its integer ids; the tablet's copies keep them as `serverId`.
  const held = new Set<unknown>(localItems.map(({ response }) => response.serverId));
  const older = (loaded?.items ?? []).filter(({ response, task }) => !held.has(response.ResponseID) && (filter.assignee !== NOBODY || task.assignee === null));
  const more = loaded !== null && loaded.pages * TASK_PER_PAGE_MAX < loaded.total;
  return (
    <section className="older-tasks" aria-label={t('older.label')}>
      <div className="window-note">
        <p>
          {t('older.keeps', { days: FORM_RESPONSES_WINDOW_DAYS })}
          {loaded && ` ${t('older.loaded', { count: older.length })}`}
        </p>
        <button type="button" className="button" disabled={reading.busy || !online} onClick={() => void reading.run(loaded && more ? loaded.pages + 1 : 1)}>
          {reading.busy ? t('older.loading') : loaded === null ? t('older.load') : more ? t('older.more') : t('older.again')}
        </button>
        {!online && <p className="muted">{t('older.needsConnection')}</p>}
      </div>
      <FormError error={reading.error} />
      {older.length > 0 && (
        <ul className="task-list" aria-label={t('older.listLabel')}>
          {older.map(({ response, task }) => (
            <li key={String(task.task_id)} className={`task-item ${task.status}`}>
              <span className="task-item-head">
                <strong className="task-title">{task.title || t('untitled')}</strong>
                <span className={`chip task-status ${task.status}`}>{taskStatusName(task.status)}</span>
              </span>
              <span className="task-item-meta">
                {t('older.meta', { form: response.TemplateName, observed: when(response.SubmittedAt), done: when(task.closed_at), assignee: assigneeText(task) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
