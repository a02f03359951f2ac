/** The tasks' texts (src/i18n): English bundled here, Spanish and Dutch loaded as needed. */
import type { TaskStatus } from '../../../common/messages/tasks';
import { i18next, registerTexts } from '../../i18n/i18n';
import en from './locales/en.json';

export const tasksTexts = registerTexts('tasks', en);

/** A task's status as the reader reads it ("In progress"). */
export const taskStatusName = (status: TaskStatus) => i18next.t(`status.${status}`, { ns: tasksTexts });
