/**
 * What answers are made of: the success envelope and the fields every record shares. Each domain's
 * schema file declares its records and answers with these, next to its request schemas; the server
 * serializes every answer through its route's schema (server/http/serializer.ts), and the tablet's
 * types are inferred from the same schemas (`z.infer`), so a shape is written once.
 */
import { z } from 'zod';

/**
 * A record as an answer names it: the spec's integer id, or, where the tablet asked for its own
 * naming (`naming=client`, server/domains/replication/client-naming.ts), the record's client id.
 */
export const recordRef = z.union([z.number().int(), z.string()]);

/** A moment, as ISO 8601 text in UTC (`2026-11-25T10:00:00.000Z`). */
export const timestamp = z.iso.datetime();

/** A calendar date, as the spec writes it (`yyyy-mm-dd`). */
export const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The text of a moment the database gave (a `Date`), for an answer. */
export function isoTime(moment: Date | string): string;
export function isoTime(moment: Date | string | null): string | null;
export function isoTime(moment: Date | string | null): string | null {
  if (moment === null) return null;
  return typeof moment === 'string' ? new Date(moment).toISOString() : moment.toISOString();
}

/** `{status: 'success', message?, ...fields}`: every success answer (server/http/route.ts `success`). */
export const answer = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object({ status: z.literal('success'), message: z.string().optional(), ...shape });

/** A success answer that carries nothing but its message. */
export const doneAnswer = answer({});

/** The answer an error gets, whatever its status (server/http/errors.ts). */
export const errorAnswer = z.looseObject({ status: z.literal('error'), message: z.string() });
