/**
 * What the tasks screens work out, as pure functions: which of the tablet's tasks a choice of filters
 * shows and in which order, its pages, the names a task is shown with (its form, its place, its
 * assignee), and who may change what (the server's rules, so the screen offers only what will pass).
 *
 * A task travels inside its response's `form_responses` document (src/api/tasks.ts), so the list is
 * made of those documents: every response with a task.
 */
import { TASK_PER_PAGE_DEFAULT } from '../../../common/messages/tasks';
import { byTaskListOrder } from '../../../common/schemas/tasks';
import type { FormResponse } from '../../api/form-responses';
import { sameId } from '../../api/records';
import type { ResponseComment, Task } from '../../api/tasks';
import type { SignedInUser } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import type { GridOrder } from '../../../common/messages/settings';
import { i18next } from '../../i18n/i18n';
import { type BoxDoc, boxLabel, type CompanyDoc, type CompanyUserJson, type GridDoc, gridSize, type RoomDoc, numberOfBox } from '../rooms/model';
import type { StatusChoice } from './statuses';
import { tasksTexts } from './texts';

/** A local response document, with its task and comments when it has them. */
export type TaskResponseDoc = LocalDocument & FormResponse;

/** A task with the response it was made from. */
export interface TaskItem {
  response: TaskResponseDoc;
  task: Task;
}

// The status choices live apart (statuses.ts) so that the list's route can check its address with them
// without the tasks' schemas in the first load.
export { DEFAULT_STATUS_CHOICE, isStatusChoice, STATUS_CHOICES, type StatusChoice } from './statuses';
export { taskStatusName } from './texts';

/** The tasks' texts, for the words these functions give (called at render: the reader's language). */
const t = () => i18next.getFixedT(null, tasksTexts);

/** The assignee filter's values besides a user id: anyone (''), the signed-in user, nobody. */
export const ANYONE = '';
export const MINE = 'mine';
export const NOBODY = 'none';

export interface TaskFilter {
  status: StatusChoice;
  /** The response's form (its template id), or null for any form. */
  formId: string | null;
  /** ANYONE, MINE, NOBODY or a user id (as text). */
  assignee: string;
}

function matchesStatus(task: Task, status: StatusChoice): boolean {
  if (status === 'all') return true;
  if (status === 'active') return task.status !== 'done';
  return task.status === status;
}

function matchesAssignee(task: Task, assignee: string, userId: number): boolean {
  if (assignee === ANYONE) return true;
  const assigned = task.assignee?.user_id ?? null;
  if (assignee === NOBODY) return assigned === null;
  return assigned !== null && String(assigned) === (assignee === MINE ? String(userId) : assignee);
}

/** The responses that have a task, with it. */
export function taskItems(responses: readonly TaskResponseDoc[]): TaskItem[] {
  return responses.flatMap((response) => (response.task ? [{ response, task: response.task }] : []));
}

/** The tasks the filter shows, in the list's order: open first, then in progress, then done (byTaskListOrder, as the server sorts). */
export function matchingTasks(items: readonly TaskItem[], filter: TaskFilter, userId: number): TaskItem[] {
  return items
    .filter(({ task }) => matchesStatus(task, filter.status) && matchesAssignee(task, filter.assignee, userId) && (filter.formId === null || sameId(task.template_id, filter.formId)))
    .sort((a, b) => byTaskListOrder(a.task, b.task));
}

export interface Page<T> {
  items: T[];
  /** The page shown (one asked beyond the last shows the last). */
  page: number;
  pages: number;
  total: number;
}

/** A page of a list, 50 per page by default (spec §9's default). */
export function pageOf<T>(items: readonly T[], page: number, perPage = TASK_PER_PAGE_DEFAULT): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { items: items.slice((shown - 1) * perPage, shown * perPage), page: shown, pages, total: items.length };
}

/** What the list says when the filters leave nothing. */
export function emptyText(filter: TaskFilter): string {
  const narrowed = filter.formId !== null || filter.assignee !== ANYONE;
  return t()(`empty.${narrowed ? 'filtered' : 'plain'}.${filter.status}`);
}

/** The forms the tablet's tasks were made from (for the form filter), by name. */
export function taskForms(items: readonly TaskItem[]): Array<{ id: string; name: string }> {
  const byId = new Map<string, string>();
  for (const { task, response } of items) byId.set(String(task.template_id), response.TemplateName || t()('unnamedForm'));
  return [...byId].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }));
}

/** "Ana Silva": a person by first and last name (spec §3: the assignee's first_name, last_name). */
export const personName = (person: { first_name?: string | null; last_name?: string | null; email?: string | null }) =>
  [person.first_name, person.last_name].filter(Boolean).join(' ').trim() || person.email || t()('unnamedUser');

/** The company's users, by first then last name: whom a task may be assigned to. */
export function companyPeople(company: CompanyDoc | null): CompanyUserJson[] {
  return [...(company?.users ?? [])].sort((a, b) => personName(a).localeCompare(personName(b), undefined, { sensitivity: 'base' }));
}

/** The task's assignee as the list and the task show them. */
export const assigneeText = (task: Task) => (task.assignee ? personName(task.assignee) : t()('nobody'));

/** The room, grid and box records the screens name places with, by local id. */
export interface Places {
  rooms: ReadonlyMap<string, RoomDoc>;
  grids: ReadonlyMap<string, GridDoc>;
  boxes: ReadonlyMap<string, BoxDoc>;
  order: GridOrder;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** Where the response was made: "Flower 1 · Bench A · Box 3", "Flower 1 · whole room"; what the tablet lacks is left out. */
export function placeText(response: TaskResponseDoc, places: Places): string {
  const boxId = text(response.gridBoxId) || text(response.GridBoxID);
  const box = boxId ? places.boxes.get(boxId) : undefined;
  const grid = box ? places.grids.get(box.gridId) : undefined;
  const room = places.rooms.get(text(response.roomId) || text(response.RoomID) || text(grid?.roomId));
  const roomName = room?.Name || (boxId || text(response.RoomID) ? t()('place.roomNotHere') : t()('place.noRoom'));
  if (!boxId) return t()('place.wholeRoom', { room: roomName });
  if (!box) return t()('place.boxNotHere', { room: roomName });
  const { nx, ny } = grid ? gridSize(grid, []) : { nx: 1, ny: 1 };
  const label = boxLabel(box, numberOfBox(places.order, box, nx, ny));
  return [roomName, grid?.Name, label].filter(Boolean).join(' · ');
}

/** The ids of the boxes and grids a page of tasks names (to read only those). */
export const boxIdsOf = (items: readonly TaskItem[]) => [...new Set(items.map(({ response }) => text(response.gridBoxId) || text(response.GridBoxID)).filter(Boolean))];

/** The one who made a task, or an Admin, deletes it (server: tasks/routes.ts `assertMayDelete`). */
export const mayDeleteTask = (task: Task, user: SignedInUser) => user.isAdmin || task.created_by === user.userId;

/** Only its author edits a comment; its author or an Admin deletes it (issue 16; server: comment-routes.ts). */
export const mayEditComment = (comment: ResponseComment, user: SignedInUser) => comment.UserID === user.userId;
export const mayDeleteComment = (comment: ResponseComment, user: SignedInUser) => user.isAdmin || comment.UserID === user.userId;
