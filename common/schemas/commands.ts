/**
 * Requests and answers of the command bar's commands (issue 18; spec part 2 "AI chat: command text and a
 * parsed data list"). The tablet parses a command itself (common/commands/actions.ts) and queues
 * save_command with the text, the actions it read and the language it read them in; the server keeps
 * them as sent (server/domains/commands). Fields may come in the query (the spec: "query command,
 * user_id"), a form or a JSON body; `parsed` as a JSON array or, in the query or a form, its text.
 */
import { z } from 'zod';
import { COMMAND_LANGUAGES, type CommandAction } from '../commands/actions';
import {
  COMMAND_ACTIONS_MAX,
  COMMAND_BOXES_MAX,
  COMMAND_MAX_CHARS,
  COMMAND_NAME_MAX_CHARS,
  COMMAND_NOTES_MAX_CHARS,
  COMMAND_PAGE_DEFAULT,
  COMMAND_PER_PAGE_DEFAULT,
  COMMAND_PER_PAGE_MAX,
  commandMessages as m,
} from '../messages/commands';
import { SEVERITY_MAX, SEVERITY_MIN } from '../messages/problems';
import { answer, recordRef, timestamp } from './answers';
import { formBody, optionalClientId, optionalId, requiredId } from './fields';

// ——— The actions (common/commands/actions.ts `CommandAction`) ———

/** A name as the grower said it and the parser matched it (a room, grid, batch, form, problem, status). */
const actionName = z.string({ error: m.parsedInvalid }).trim().min(1, { error: m.parsedInvalid }).max(COMMAND_NAME_MAX_CHARS, { error: m.parsedInvalid });

/** Box numbers in the room's numbering (from 1), as the parser gives them: increasing, so sorted without repeats. */
const boxNumbers = z
  .array(z.number({ error: m.boxesInvalid }).int({ error: m.boxesInvalid }).positive({ error: m.boxesInvalid }), { error: m.boxesInvalid })
  .max(COMMAND_BOXES_MAX, { error: m.boxesInvalid })
  .refine((boxes) => boxes.every((box, index) => index === 0 || box > (boxes[index - 1] as number)), { error: m.boxesInvalid });

/** Boxes of one grid; `grid: null` is the grid that was on screen. */
const boxesOfGrid = { boxes: boxNumbers, grid: actionName.nullable() };

/**
 * One action, exactly as the type says: a kind it does not know, a field missing or one more than its
 * kind has answers `parsedInvalid` (or the field's own message), so what is kept is always a list the
 * tablet can read back.
 */
export const commandActionSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('cull'), culled: z.boolean({ error: m.parsedInvalid }), ...boxesOfGrid }, { error: m.parsedInvalid }),
    z.strictObject(
      { kind: z.literal('mark-scanned'), target: z.enum(['room', 'grid'], { error: m.parsedInvalid }), name: actionName.nullable() },
      { error: m.parsedInvalid },
    ),
    z.strictObject(
      {
        kind: z.literal('problem'),
        problem: actionName,
        severity: z.number({ error: m.severityInvalid }).min(SEVERITY_MIN, { error: m.severityInvalid }).max(SEVERITY_MAX, { error: m.severityInvalid }),
        notes: z.string({ error: m.parsedInvalid }).max(COMMAND_NOTES_MAX_CHARS, { error: m.parsedInvalid }).nullable(),
        ...boxesOfGrid,
      },
      { error: m.parsedInvalid },
    ),
    z.strictObject({ kind: z.literal('batch-status'), batch: actionName, status: actionName }, { error: m.parsedInvalid }),
    z.strictObject({ kind: z.literal('harvest'), batch: actionName }, { error: m.parsedInvalid }),
    z.strictObject({ kind: z.literal('fill-form'), form: actionName, ...boxesOfGrid }, { error: m.parsedInvalid }),
  ],
  { error: m.parsedInvalid },
);

/** Holds at compile time only if the schema reads exactly `CommandAction`: a kind or field added to one and not the other fails the build. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<Claim extends true> = Claim;
type _SchemaReadsCommandAction = Holds<Exactly<z.output<typeof commandActionSchema>, CommandAction>>;

/** The actions of one command, in the order said. */
export const commandActionsSchema = z.array(commandActionSchema, { error: m.parsedInvalid }).max(COMMAND_ACTIONS_MAX, { error: m.parsedInvalid });

/** `parsed` as sent: a JSON array, or its text (from the query or a form); absent or blank, no actions. */
const parsedInput = z.preprocess((value) => {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return [];
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // Not JSON: checked as it is, so it answers the list's message.
    return value;
  }
}, commandActionsSchema);

/** Blank text and null count as absent; text is trimmed and lower-cased (a language `NL` is `nl`). */
const trimmedWord = (value: unknown) => {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  const word = value.trim().toLowerCase();
  return word === '' ? undefined : word;
};

// ——— Requests ———

/**
 * save_command. `command` is kept trimmed; `user_id` must be the caller (a user saves only their own
 * commands); `client_id` names the command for good, so the same one sent again saves nothing new.
 */
export const saveCommandBody = formBody({
  command: z.string({ error: m.commandUserRequired }).trim().min(1, { error: m.commandUserRequired }).max(COMMAND_MAX_CHARS, { error: m.commandTooLong }),
  user_id: requiredId(m.commandUserRequired),
  parsed: parsedInput,
  language: z.preprocess(trimmedWord, z.enum(COMMAND_LANGUAGES, { error: m.languageInvalid }).default('en')),
  client_id: optionalClientId(),
});

/** A page number or size from the query; blank counts as absent. */
const pageNumber = (message: string) => z.preprocess(trimmedWord, z.coerce.number({ error: message }).int({ error: message }).min(1, { error: message }).max(1_000_000, { error: message }));

/** get_commands: the company's commands (or one user's), newest first by when they were given, a page at a time. */
export const getCommandsQuery = z.object({
  company_id: requiredId(m.companyIdRequired),
  user_id: optionalId(m.userIdInvalid),
  page: pageNumber(m.pageInvalid).default(COMMAND_PAGE_DEFAULT),
  // A larger page is cut to the maximum rather than refused: the answer says which size applied.
  per_page: pageNumber(m.perPageInvalid)
    .default(COMMAND_PER_PAGE_DEFAULT)
    .transform((perPage) => Math.min(perPage, COMMAND_PER_PAGE_MAX)),
});

// ——— Answers ———

/** A command as kept: its text, the actions read from it, the language they were read in, and when it was given. */
export const commandRecord = z.object({
  command_id: recordRef,
  client_id: z.string(),
  company_id: z.number().int(),
  user_id: z.number().int(),
  command: z.string(),
  parsed: commandActionsSchema,
  language: z.enum(COMMAND_LANGUAGES),
  /** When the command was given: the act's time, also when it was queued offline and sent later. */
  acted_at: timestamp,
});

export type CommandRecord = z.infer<typeof commandRecord>;

export const saveCommandAnswer = answer({ command: commandRecord, command_id: recordRef, client_id: z.string() });
export const commandsAnswer = answer({ commands: z.array(commandRecord), page: z.number().int(), per_page: z.number().int(), total: z.number().int() });
