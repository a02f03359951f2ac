import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { isStatusChoice } from '../../../features/tasks/statuses';
import { type TasksSearch, TasksScreen } from '../../../features/tasks/TasksScreen';
import { idParameter } from '../../../features/forms/fill/search';

/** `?status=&form=&assignee=&page=`: what the tasks list shows (absent: the work not done, any form, anyone, page 1). */
export const Route = createFileRoute('/dashboard/tasks/')({
  validateSearch: (search: Record<string, unknown>): TasksSearch => {
    const form = idParameter(search, 'form').form;
    const assignee = idParameter(search, 'assignee').assignee;
    const page = Number(search.page);
    return {
      ...(isStatusChoice(search.status) ? { status: search.status } : {}),
      ...(form === undefined ? {} : { form: String(form) }),
      ...(assignee === undefined ? {} : { assignee: String(assignee) }),
      ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    };
  },
  component: TasksRoute,
});

function TasksRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return <TasksScreen search={search} onSearch={(next) => void navigate({ to: '/dashboard/tasks', search: next, replace: true })} />;
}
