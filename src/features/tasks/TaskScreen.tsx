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
import { assigneeText, companyPeople, mayDeleteTask, personName, placeText, STATUS_LABELS, type TaskItem } from './model';
import './tasks.css';

export function TaskScreen({ taskId }: { taskId: string }) {
  return <SignedIn title="Task">{(user) => <TaskView user={user} taskId={taskId} />}</SignedIn>;
}

function TaskView({ user, taskId }: { user: SignedInUser; taskId: string }) {
  const { item, loading } = useTaskItem(taskId);
  const company = useCompanyDoc(user.companyId);
  return (
    <Screen title={item?.task.title || 'Task'} loading={loading} empty={!loading && !item ? 'This task is not on this tablet: it was deleted, or has not arrived yet.' : null}>
      {item && <TaskDetails item={item} user={user} company={company} />}
    </Screen>
  );
}

function TaskDetails({ item, user, company }: { item: TaskItem; user: SignedInUser; company: CompanyDoc | null }) {
  const { response, task } = item;
  const places = usePlaces(user.companyId, [item], company);
  const waiting = useResponsesWithWaitingChanges([response.id]).has(response.id) || !reachedServer(response);
  const maker = task.automation_id !== null ? 'an automation' : (userName(company, task.created_by) ?? 'a user not on this tablet');
  return (
    <div className="task-screen">
      <p className="task-state">
        <span className={`chip task-status ${task.status}`}>{STATUS_LABELS[task.status]}</span>
        {waiting && <span className="chip waiting">Waiting to sync</span>}
        <span className="muted">Assigned to {assigneeText(task)}</span>
      </p>
      <dl className="task-details">
        <div>
          <dt>Observation</dt>
          <dd>
            {response.TemplateName} · {placeText(response, places)}
          </dd>
        </div>
        <div>
          <dt>Made</dt>
          <dd>
            {when(task.created_at)} by {maker}
          </dd>
        </div>
        {task.due_at && (
          <div>
            <dt>Due</dt>
            <dd>{when(task.due_at)}</dd>
          </div>
        )}
        {task.status === 'done' && task.closed_at && (
          <div>
            <dt>Done</dt>
            <dd>
              {when(task.closed_at)}
              {task.closed_by !== null && ` by ${userName(company, task.closed_by) ?? 'a user not on this tablet'}`}
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
        <h2 id="task-observation">Observation</h2>
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
  const setting = useAction(updateTask, m.taskUpdated);
  const set = (status: TaskStatus) => status !== task.status && void setting.run({ responseId, status });
  return (
    <section className="card task-section" aria-labelledby="task-status-heading">
      <h2 id="task-status-heading">Status</h2>
      <div className="task-status-buttons" role="group" aria-labelledby="task-status-heading">
        {TASK_STATUSES.map((status) => (
          <button key={status} type="button" className={`button status-button ${status}${status === task.status ? ' chosen' : ''}`} aria-pressed={status === task.status} disabled={setting.busy} onClick={() => set(status)}>
            {STATUS_LABELS[status]}
          </button>
        ))}
      </div>
    </section>
  );
}

/** The company's users by first and last name (spec §7: the assignee's first and last name), or nobody. */
function AssigneeChoice({ responseId, task, company }: { responseId: string; task: Task; company: CompanyDoc | null }) {
  const id = useId();
  const assigning = useAction(updateTask, m.taskUpdated);
  const people = companyPeople(company);
  const current = task.assignee ? String(task.assignee.user_id) : '';
  return (
    <section className="card task-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Assignee</h2>
      {/* The label stands beside the select: a wrapped select would put its value into its name. */}
      <div className="task-field">
        <label htmlFor={`${id}-assignee`}>Assigned to</label>
        <select
          id={`${id}-assignee`}
          className="control"
          value={current}
          disabled={assigning.busy}
          onChange={(event) => void assigning.run({ responseId, assigneeUserId: event.target.value === '' ? null : Number(event.target.value) })}
        >
          <option value="">Nobody</option>
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
      <h2 id="task-text-heading">Title and description</h2>
      <form className="form" onSubmit={save}>
        <Field label="Title">
          <input value={title} maxLength={TASK_TITLE_MAX_CHARS} onChange={(event) => setTitle(event.target.value)} autoComplete="off" />
        </Field>
        <Field label="Description">
          <textarea value={description} rows={4} onChange={(event) => setDescription(event.target.value)} />
        </Field>
        <FormError error={saving.error} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={saving.busy || !changed}>
            Save title and description
          </button>
        </div>
      </form>
    </section>
  );
}

function DeleteTask({ responseId, task }: { responseId: string; task: Task }) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const removing = useAction(deleteTask, m.taskDeleted);
  return (
    <section className="task-delete" aria-label="Delete this task">
      {asking ? (
        <ConfirmPanel
          question={`Delete the task ${task.title}?`}
          message="The observation and its comments stay."
          confirmLabel="Delete task"
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
          Delete task
        </button>
      )}
    </section>
  );
}
