/**
 * Client ids (ARCHITECTURE.md "One write, end to end"): every record has a permanent uuid beside the
 * spec's integer id. A tablet chooses it when it makes the record (v7, so ids sort by the time they
 * were made) and names the record by it from then on, before and after the server has answered; the
 * server stores it (unique per company) and accepts it wherever a parameter names a record.
 *
 * Records made together with another (a grid's boxes, a template's fields, the sub-gridboxes of a
 * division, the responses of one submit, the problems a response's answers name) take ids derived from
 * their parent's and a name of their place in it (a v5 uuid): the tablet and the server compute the same
 * ids, so the request need not carry one per child, and a repeat computes them again alike.
 */
import { v5 as uuidV5, v7 as uuidV7, validate } from 'uuid';

export type ClientId = string;

/** A new client id: a UUID v7. */
export const newClientId = (): ClientId => uuidV7();

/** The client id of a record made with `parent`, at the place named `place` (e.g. `box:3,4`, `field:2`). */
export const childClientId = (parent: ClientId, place: string): ClientId => uuidV5(place, parent);

/** Whether a value is a client id (any UUID: rows made before client ids existed got v4 ones). */
export const isClientId = (value: unknown): value is ClientId => typeof value === 'string' && validate(value);

/** A grid box's client id: derived from its grid's and its position, as both sides compute it. */
export const boxClientId = (gridClientId: ClientId, x: number, y: number): ClientId => childClientId(gridClientId, `box:${x},${y}`);

/** A sub-gridbox's client id: derived from its division's (the create_sub_gridboxes call's) and its position. */
export const subGridboxClientId = (divisionClientId: ClientId, subx: number, suby: number): ClientId => childClientId(divisionClientId, `sub:${subx},${suby}`);

/** The client id of the response for the `index`-th box (in the order sent, repeats left out) of a call that makes one per box. */
export const responseClientId = (submissionClientId: ClientId, index: number): ClientId => childClientId(submissionClientId, `box:${index}`);

/**
 * The client id of the plant problem a form response records for the `index`-th problem its Problem
 * answers name (common/problem-answers.ts `problemsOfAnswers` numbers them): derived from the response's
 * own client id, so the tablet's optimistic problems and the server's records are the same ones.
 */
export const formProblemClientId = (responseId: ClientId, index: number): ClientId => childClientId(responseId, `problem:${index}`);

const CLIENT_ID_PATTERN = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every client id in a value (path, query, body), found by walking it: also inside text (a comma-joined list, a path). */
export function clientIdsIn(value: unknown, found = new Set<ClientId>()): Set<ClientId> {
  if (typeof value === 'string') for (const match of value.matchAll(CLIENT_ID_PATTERN)) found.add(match[0].toLowerCase());
  else if (Array.isArray(value)) for (const item of value) clientIdsIn(item, found);
  else if (value && typeof value === 'object' && !(value instanceof Blob)) for (const item of Object.values(value)) clientIdsIn(item, found);
  return found;
}
