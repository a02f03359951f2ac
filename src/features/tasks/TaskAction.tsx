/**
 * "Make a task" under an observation (issue 16: a task is made from a form response), or, when the
 * response has its task already, a link to it. Making one is queued and shows at once, offline too;
 * the task's screen opens.
 *
 * A response loaded from the server beyond what the tablet keeps names its task by the server's id: its
 * task is shown by title only (its screen needs the response on this tablet, which the next pull
 * brings while the task is open).
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isClientId } from '../../../common/client-ids';
import { taskMessages } from '../../../common/messages/tasks';
import type { FormResponse } from '../../api/form-responses';
import { createTask } from '../../api/tasks';
import { useAction } from '../../app/hooks';
import { FormError } from '../shell/forms';
import { taskStatusName, tasksTexts } from './texts';
import './tasks.css';

export function TaskAction({ response }: { response: FormResponse }) {
  const { t } = useTranslation(tasksTexts);
  const navigate = useNavigate();
  const making = useAction(
    async (context, responseId: FormResponse['ResponseID']) => {
      const taskId = await createTask(context, { responseId });
      await navigate({ to: '/dashboard/tasks/$taskID', params: { taskID: taskId } });
    },
    taskMessages.taskCreated,
    { inlineErrors: true },
  );
  const task = response.task;
  if (task) {
    const label = t('action.task', { title: task.title, status: taskStatusName(task.status) });
    return (
      <div className="task-action">
        {isClientId(task.task_id) ? (
          <Link to="/dashboard/tasks/$taskID" params={{ taskID: task.task_id }} className="button">
            {label}
          </Link>
        ) : (
          <span className="muted">{label}</span>
        )}
      </div>
    );
  }
  return (
    <div className="task-action">
      <button type="button" className="button" disabled={making.busy} onClick={() => void making.run(response.ResponseID)}>
        {t('action.make')}
      </button>
      <FormError error={making.error} />
    </div>
  );
}
