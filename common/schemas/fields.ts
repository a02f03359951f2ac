/**
 * Field rules shared by the server's request schemas and the client's checks. Values may arrive as
 * JSON, as form fields (strings) or in the query (strings), so numbers are coerced; every rule takes
 * the spec's exact message.
 */
import { z } from 'zod';
import { httpMessages } from '../messages/http';

/** Blank text (empty or only spaces) and null count as absent. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

/** A non-blank string, trimmed. */
export const requiredText = (message: string, max = 500) =>
  z.string({ error: message }).trim().min(1, { error: message }).max(max, { error: message });

export const optionalText = (max = 2000) => z.preprocess(blankToUndefined, z.string().trim().max(max).optional());

/** The largest id a record can have: ids are PostgreSQL `integer`s. */
export const MAX_RECORD_ID = 2_147_483_647;

/** A positive whole-number id, no larger than an id column holds. */
export const requiredId = (message: string) =>
  z.coerce.number({ error: message }).int({ error: message }).positive({ error: message }).max(MAX_RECORD_ID, { error: message });

export const optionalId = (message = 'Ids must be positive whole numbers.') => z.preprocess(blankToUndefined, requiredId(message).optional());

/**
 * The client id a tablet chose for the record a create makes (common/client-ids.ts). Optional: a call
 * without one (online use of the spec's call) gets a new one from the server.
 */
export const optionalClientId = () => z.preprocess(blankToUndefined, z.uuid({ error: httpMessages.clientIdInvalid }).optional());

/** A whole number within bounds (from JSON or text); blank counts as missing. */
export const requiredWholeNumber = (message: string, min = 0, max = 1_000_000_000) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message }));

/** A finite number (from JSON or text). */
export const requiredNumber = (message: string) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: message }).refine(Number.isFinite, { error: message }));

export const requiredEmail = (requiredMessage: string, invalidMessage: string) =>
  z.string({ error: requiredMessage }).trim().min(1, { error: requiredMessage }).pipe(z.email({ error: invalidMessage })).transform((email) => email.toLowerCase());

/** 0 or 1, from a number, a digit or a boolean. */
export const flag = (requiredMessage: string, invalidMessage: string = requiredMessage) =>
  z.preprocess(
    (value) => (value === true || value === 'true' ? 1 : value === false || value === 'false' ? 0 : blankToUndefined(value)),
    z.coerce.number({ error: requiredMessage }).refine((value) => value === 0 || value === 1, { error: invalidMessage }),
  );

/** A request body's fields; a request with no body at all is checked as an empty one, so the field messages apply. */
export const formBody = <Shape extends z.ZodRawShape>(shape: Shape) => z.preprocess((value) => value ?? {}, z.object(shape));

/** A calendar date as yyyy-mm-dd that exists (2026-02-30 does not). */
export const isCalendarDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A date-only value as yyyy-mm-dd, or null when blank, absent or the text `null` (as forms send it). */
export const nullableDate = (message: string) =>
  z.preprocess(
    (value) => (value === undefined || value === null || value === '' || value === 'null' ? null : value),
    z.string({ error: message }).trim().refine(isCalendarDate, { error: message }).nullable(),
  );

/** Ids as a JSON array, or a comma-joined text (spec: "batch ids and room ids are joined with commas"). */
export const idList = (message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : typeof value === 'number' ? [value] : value),
    z.array(requiredId(message), { error: message }),
  );
