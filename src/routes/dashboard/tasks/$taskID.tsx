import { createFileRoute } from '@tanstack/react-router';
import { TaskScreen } from '../../../features/tasks/TaskScreen';

/** A task, by its client id (src/api/tasks.ts: a task keeps it for life, made here or on the server). */
export const Route = createFileRoute('/dashboard/tasks/$taskID')({
  component: function TaskRoute() {
    const { taskID } = Route.useParams();
    return <TaskScreen taskId={taskID} />;
  },
});
