/**
 * Messages and limits of the command bar's commands (issue 18; spec part 2 "AI chat: command text and a
 * parsed data list", `POST /save_command: query command, user_id`). The spec shows no messages for the
 * call: these say its rules in its field names, in the words other domains use ('… are required.').
 */
import { COMMAND_LANGUAGES } from '../commands/actions';
import { SEVERITY_MAX, SEVERITY_MIN } from './problems';

/** The longest command kept: a spoken or typed sentence or two, not a document. */
export const COMMAND_MAX_CHARS = 500;

/** Most actions one command holds ("cull box 3 and harvest B-001": two); more is not a command a grower says. */
export const COMMAND_ACTIONS_MAX = 20;

/** Most boxes one action names ("boxes 1 to 500"): a large room's grid, not a typing slip of extra digits. */
export const COMMAND_BOXES_MAX = 500;

/** The longest name an action holds (a room, grid, batch, form, problem or status, as the company wrote it). */
export const COMMAND_NAME_MAX_CHARS = 200;

/** The longest notes a problem action holds. */
export const COMMAND_NOTES_MAX_CHARS = 2000;

export const COMMAND_PAGE_DEFAULT = 1;
export const COMMAND_PER_PAGE_DEFAULT = 50;
export const COMMAND_PER_PAGE_MAX = 200;

export const commandMessages = {
  // save_command.
  commandUserRequired: 'command and user_id are required.',
  commandTooLong: `command must be at most ${COMMAND_MAX_CHARS} characters.`,
  parsedInvalid: `parsed must be a list of at most ${COMMAND_ACTIONS_MAX} actions as the command bar reads them (cull, mark-scanned, problem, batch-status, harvest or fill-form), each with its own fields.`,
  boxesInvalid: `boxes must be box numbers (whole numbers from 1) in increasing order without repeats, at most ${COMMAND_BOXES_MAX} of them.`,
  severityInvalid: `severity must be a number from ${SEVERITY_MIN} to ${SEVERITY_MAX}.`,
  languageInvalid: `language must be one of ${COMMAND_LANGUAGES.join(', ')}.`,
  commandSaved: 'Command saved.',
  // get_commands.
  companyIdRequired: 'company_id is required.',
  userIdInvalid: 'user_id must be a positive whole number.',
  pageInvalid: 'page must be a whole number from 1.',
  perPageInvalid: `per_page must be a whole number from 1 (at most ${COMMAND_PER_PAGE_MAX} are answered).`,
  // The client's defaults when a call fails without a message (spec §8).
  saveCommandFailed: 'Failed to save command.',
  fetchCommandsFailed: 'Failed to fetch commands.',
} as const;
