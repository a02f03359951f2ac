/**
 * One task (spec part 1 §2 `tasks`; part 2 §3 "Task", "Comment", §4; issue 16): its status (large
 * buttons, for gloved hands on the floor), its assignee, title and description, the observation it was
 * made from with its answers and photos, and the observation's comments. Read from the tablet's copy
 * of the response; every change is queued and shows at once, offline too, marked "Waiting to sync"
 * until the server has it.
 *
 * Who may do what follows the server (model.ts): any member changes a task and comments; its maker or
 * an Admin deletes it; only a comment's author edits it, and its author or an Admin deletes it.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TASK_STATUSES, TASK_TITLE_MAX_CHARS, type TaskStatus, taskMessages as m } from '../../../common/messages/tasks';
import { deleteTask, type Task, updateTask } from '../../api/tasks';
import { reachedServer } from '../../api/records';
import { type SignedInUser, useAction } from '../../app/hooks';
import { ResponseCard } from '../observations/ResponseCard';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { useCompanyDoc } from '../plant-moves/places';
import { SignedIn } from '../session/SignedIn';
import { ConfirmPanel, Field, FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { Comments } from './Comments';
import { usePlaces, useResponsesWithWaitingChanges, useTaskItem } from './hooks';
import { assigneeText, companyPeople, mayDeleteTask, personName, placeText, type TaskItem } from './model';
import { taskStatusName, tasksTexts } from './texts';
import './tasks.css';

export function TaskScreen({ taskId }: { taskId: string }) {
  const { t } = useTranslation(tasksTexts);
  return <SignedIn title={t('task')}>{(user) => <TaskView user={user} taskId={taskId} />}</SignedIn>;
}

function TaskView({ user, taskId }: { user: SignedInUser; taskId: string }) {
  const { t } = useTranslation(tasksTexts);
  const { item, loading } = useTaskItem(taskId);
  const company = useCompanyDoc(user.companyId);
  return (
    <Screen title={item?.task.title || t('task')} loading={loading} empty={!loading && !item ? t('detail.notHere') : null}>
      {item && <TaskDetails item={item} user={user} company={company} />}
    </Screen>
  );
}

function TaskDetails({ item, user, company }: { item: TaskItem; user: SignedInUser; company: CompanyDoc | null }) {
  const { t } = useTranslation(tasksTexts);
  const { response, task } = item;
  const places = usePlaces(user.companyId, [item], company);
  const waiting = useResponsesWithWaitingChanges([response.id]).has(response.id) || !reachedServer(response);
  const maker = task.automation_id !== null ? t('detail.anAutomation') : (userName(company, task.created_by) ?? t('detail.aUserNotHere'));
  return (
    <div className="task-screen">
      <p className="task-state">
        <span className={`chip task-status ${task.status}`}>{taskStatusName(task.status)}</span>
        {waiting && <span className="chip waiting">{t('waitingToSync')}</span>}
        <span className="muted">{t('assignedTo', { name: assigneeText(task) })}</span>
      </p>
      <dl className="task-details">
        <div>
          <dt>{t('detail.observation')}</dt>
          <dd>
            {response.TemplateName} · {placeText(response, places)}
          </dd>
        </div>
        <div>
          <dt>{t('detail.made')}</dt>
          <dd>{t('detail.madeBy', { when: when(task.created_at), maker })}</dd>
        </div>
        {task.due_at && (
          <div>
            <dt>{t('detail.due')}</dt>
            <dd>{when(task.due_at)}</dd>
          </div>
        )}
        {task.status === 'done' && task.closed_at && (
          <div>
            <dt>{t('detail.done')}</dt>
            <dd>
              {task.closed_by === null
                ? when(task.closed_at)
                : t('detail.doneBy', { when: when(task.closed_at), name: userName(company, task.closed_by) ?? t('detail.aUserNotHere') })}
            </dd>
          </div>
        )}
      </dl>
      {/* An outside consultant reads the task and comments; changing it is the company's (the server refuses it too). */}
      {user.role !== 'Consultant' ? (
        <>
          <StatusButtons responseId={response.id} task={task} />
          <AssigneeChoice responseId={response.id} task={task} company={company} />
          <TitleAndDescription responseId={response.id} task={task} />
        </>
      ) : (
        task.description && <p className="card task-section">{task.description}</p>
      )}
      <section className="card task-section" aria-labelledby="task-observation">
        <h2 id="task-observation">{t('detail.observation')}</h2>
        <ul className="responses">
          <ResponseCard response={response} company={company} />
        </ul>
      </section>
      <Comments response={response} user={user} company={company} />
      {mayDeleteTask(task, user) && <DeleteTask responseId={response.id} task={task} />}
    </div>
  );
}

/** Open / In progress / Done: one tap sets it (done closes it as the signed-in user). */
function StatusButtons({ responseId, task }: { responseId: string; task: Task }) {
  const { t } = useTranslation(tasksTexts);
  const setting = useAction(updateTask, m.taskUpdated);
  const set = (status: TaskStatus) => status !== task.status && void setting.run({ responseId, status });
  return (
    <section className="card task-section" aria-labelledby="task-status-heading">
      <h2 id="task-status-heading">{t('detail.status')}</h2>
      <div className="task-status-buttons" role="group" aria-labelledby="task-status-heading">
        {TASK_STATUSES.map((status) => (
          <button key={status} type="button" className={`button status-button ${status}${status === task.status ? ' chosen' : ''}`} aria-pressed={status === task.status} disabled={setting.busy} onClick={() => set(status)}>
            {taskStatusName(status)}
          </button>
        ))}
      </div>
    </section>
  );
}

/** The company's users by first and last name (spec §7: the assignee's first and last name), or nobody. */
function AssigneeChoice({ responseId, task, company }: { responseId: string; task: Task; company: CompanyDoc | null }) {
  const { t } = useTranslation(tasksTexts);
  const id = useId();
  const assigning = useAction(updateTask, m.taskUpdated);
  const people = companyPeople(company);
  const current = task.assignee ? String(task.assignee.user_id) : '';
  return (
    <section className="card task-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('detail.assignee')}</h2>
      {/* The label stands beside the select: a wrapped select would put its value into its name. */}
      <div className="task-field">
        <label htmlFor={`${id}-assignee`}>{t('detail.assignedTo')}</label>
        <select
          id={`${id}-assignee`}
          className="control"
          value={current}
          disabled={assigning.busy}
          onChange={(event) => void assigning.run({ responseId, assigneeUserId: event.target.value === '' ? null : Number(event.target.value) })}
        >
          <option value="">{t('nobody')}</option>
          {task.assignee && !people.some((person) => person.user_id === task.assignee?.user_id) && <option value={current}>{personName(task.assignee)}</option>}
          {people.map((person) => (
            <option key={person.user_id} value={String(person.user_id)}>
              {personName(person)}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

function TitleAndDescription({ responseId, task }: { responseId: string; task: Task }) {
  const { t } = useTranslation(tasksTexts);
  const [title, setTitle] = useState(task.title);
  const [description, setDescription] = useState(task.description);
  const saving = useAction(updateTask, m.taskUpdated, { inlineErrors: true });
  // Changed elsewhere (a pull, another screen): show the task as it now is.
  useEffect(() => setTitle(task.title), [task.title]);
  useEffect(() => setDescription(task.description), [task.description]);
  const changed = title.trim() !== task.title || description.trim() !== task.description;
  function save(event: FormEvent) {
    event.preventDefault();
    void saving.run({ responseId, title, description });
  }
  return (
    <section className="card task-section" aria-labelledby="task-text-heading">
      <h2 id="task-text-heading">{t('detail.textHeading')}</h2>
      <form className="form" onSubmit={save}>
        <Field label={t('detail.title')}>
          <input value={title} maxLength={TASK_TITLE_MAX_CHARS} onChange={(event) => setTitle(event.target.value)} autoComplete="off" />
        </Field>
        <Field label={t('detail.description')}>
          <textarea value={description} rows={4} onChange={(event) => setDescription(event.target.value)} />
        </Field>
        <FormError error={saving.error} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={saving.busy || !changed}>
            {t('detail.save')}
          </button>
        </div>
      </form>
    </section>
  );
}

function DeleteTask({ responseId, task }: { responseId: string; task: Task }) {
  const { t } = useTranslation(tasksTexts);
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const removing = useAction(deleteTask, m.taskDeleted);
  return (
    <section className="task-delete" aria-label={t('detail.deleteLabel')}>
      {asking ? (
        <ConfirmPanel
          question={t('detail.deleteQuestion', { title: task.title })}
          message={t('detail.deleteMessage')}
          confirmLabel={t('detail.delete')}
          busy={removing.busy}
          onKeep={() => setAsking(false)}
          onConfirm={() =>
            void removing.run({ responseId, taskId: task.task_id }).then(async (done) => {
              if (done) await navigate({ to: '/dashboard/tasks' });
            })
          }
        />
      ) : (
        <button type="button" className="button danger" onClick={() => setAsking(true)}>
          {t('detail.delete')}
        </button>
      )}
    </section>
  );
}
