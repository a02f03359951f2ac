/**
 * Authentication, roles and tenancy: the one mechanism every route goes through (STYLE.md §3).
 *
 * - An /api route declares `config.access`: 'public', 'member' (the default: any signed-in role), 'admin'
 *   (Admin or SuperAdmin) or 'superadmin'.
 * - The caller comes from the access token only. Any parameter that names a company or a record
 *   (ownership.ts) is checked against the caller's company before the handler runs: another
 *   company's id answers 403, a missing record 404. SuperAdmin may act across companies.
 * - Parameters are found by name wherever they stand: path, query, body, and nested in the body's
 *   objects and arrays at any depth (`fieldResponses[].fieldID`), the one way `namedRecords` reads a
 *   request, for the guard and for a push's proofs (`ownedAhead`) alike. The body of a route that
 *   carries other requests (the push, `config.carriesRequests`) is not read: each entry is guarded as
 *   the request of its own that it becomes.
 * - A route whose path names a record under a generic name declares it: `config.owns: {id: 'company'}`.
 * - Records named under a name only their route can interpret (the sync read-back's `ids`) or by a
 *   uuid (files) are checked by the handler once loaded, with `assertCompanyAccess`: the same rule.
 * - A Consultant (server/domains/consultants/routes.ts) acts in the company their token names, as any
 *   member, but only reads and comments: a route lets one in by `config.consultant` ('read', 'comment', or
 *   'account' for their own session calls), GET and HEAD routes read, a route carrying requests (the
 *   push) lets each entry be checked as its own request; any other route answers 403 (default deny: a
 *   route added later is safe). And every request of theirs but 'account' ones needs their grant of
 *   that company active at this moment, looked up each time (`assertConsultantGrant`): a revocation or an
 *   expiry refuses the very next request, whatever the token, which lives minutes, still says.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { consultantMessages } from '../../common/messages/consultants';
import { httpMessages } from '../../common/messages/http';
import { MAX_RECORD_ID } from '../../common/schemas/fields';
import type { Role } from '../../common/roles';
import type { DB } from '../db/schema';
import type { AccessClaims, TokenService } from '../domains/auth/tokens';
import { consultantQueries } from '../domains/consultants/queries';
import { forbidden, notFound, unauthorized } from './errors';
import type { OwnershipProofs } from './ownership-proofs';
import { forEachNamedField, OWNED_KINDS, OWNED_PARAMETERS, type OwnedKindName } from './ownership';
import { answeredRepeatOf, isAnsweredRepeat, isPushedEntry, provenOwnership } from './transactions';

export type Access = 'public' | 'member' | 'admin' | 'superadmin' | 'consultant';

/**
 * What a Consultant may do on a route: read it ('read': what a POST route that only reads declares; GET
 * and HEAD routes read without saying), comment ('comment'), or manage their own session ('account':
 * allowed even once the grant of the token's company has ended, so they can switch to another); or
 * nothing ('refused'), which a GET route that changes data declares (the spec's GET delete_task_template).
 */
export type ConsultantUse = 'read' | 'comment' | 'account' | 'refused';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    owns?: Record<string, OwnedKindName>;
    /**
     * The body holds other requests (the sync push), each guarded, resolved (client-ids.ts) and
     * checked (input.ts) as the request of its own it becomes: those read the route's path and query only.
     */
    carriesRequests?: boolean;
    /** What a Consultant may do here (see `ConsultantUse`); absent on a route that changes data: refused to them. */
    consultant?: ConsultantUse;
  }
  interface FastifyRequest {
    /** The verified access token's claims; null only on public routes. */
    auth: AccessClaims | null;
  }
}

const ALLOWED: Record<Exclude<Access, 'public'>, readonly Role[]> = {
  // A Consultant is a member of the companies that granted them access, for what `consultantUseOf` lets through.
  member: ['Regular', 'Admin', 'SuperAdmin', 'Consultant'],
  admin: ['Admin', 'SuperAdmin'],
  superadmin: ['SuperAdmin'],
  consultant: ['Consultant'],
};

/** What a Consultant may do on the route of `request`, or null: refused to them. */
function consultantUseOf(request: FastifyRequest): ConsultantUse | null {
  const { consultant, carriesRequests } = request.routeOptions.config;
  if (consultant === 'refused') return null;
  if (consultant) return consultant;
  if (request.method === 'GET' || request.method === 'HEAD' || carriesRequests) return 'read';
  return null;
}

/** The caller of a protected route. */
export function caller(request: FastifyRequest): AccessClaims {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * A `user_id` a request names for the acting user (threshold, culling, scans, audit events) must be
 * the caller's own: nobody records in someone else's name, even in the same company.
 */
export function assertCaller(request: FastifyRequest, userId: number | undefined): AccessClaims {
  const claims = caller(request);
  if (userId !== undefined && userId !== claims.user_id) throw forbidden(httpMessages.notYourself);
  return claims;
}

/**
 * The company a request acts on: the one its parameters name (already checked by the guard), else
 * the caller's own.
 */
export function actingCompany(request: FastifyRequest, named?: number | null): number {
  return named ?? caller(request).company_id;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice('Bearer '.length).trim() || null;
}

export function registerGuards(app: FastifyInstance, deps: { db: Kysely<DB>; tokens: TokenService; proofs?: OwnershipProofs }) {
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access ?? 'member';
    // Outside /api is the web app's shell and assets: public files.
    const isApi = request.routeOptions.url?.startsWith('/api/') ?? false;
    if (request.is404 || !isApi || access === 'public') return;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    const claims = await deps.tokens.verifyAccess(token);
    if (!claims) throw unauthorized(httpMessages.invalidToken);
    request.auth = claims;
    // Before a repeat gets its answer and before the input is read: a consultant's write is refused
    // whatever it repeats, and so is every request once their grant ended (a pushed entry's grant is
    // asked in preHandler, through its push's transaction: transactions.ts).
    if (claims.user_role === 'Consultant') {
      if (consultantUseOf(request) === null) throw forbidden(consultantMessages.readOnly);
      if (!isPushedEntry(request)) await assertConsultantGrant(request, claims);
    }
    // A repeat of a call already answered gets that answer (transactions.ts), whatever changed since.
    if (await isAnsweredRepeat(request)) return;
    if (!ALLOWED[access].includes(claims.user_role)) throw forbidden();
  });

  app.addHook('preHandler', async (request) => {
    if (!request.auth) return;
    // A pushed entry reads through its push's transaction from here on, not on arrival (transactions.ts).
    if (request.auth.user_role === 'Consultant' && isPushedEntry(request)) await assertConsultantGrant(request, request.auth);
    if (answeredRepeatOf(request)) return;
    const { owns, carriesRequests } = request.routeOptions.config;
    const wanted = namedRecords({ ...OWNED_PARAMETERS, ...owns }, carriesRequests ? [request.params, request.query] : [request.params, request.query, request.body]);
    const proven = provenOwnership(request);
    // A read outside a push may use what this instance proved lately (ownership-proofs.ts).
    const proofs = !proven && (request.method === 'GET' || request.method === 'HEAD') ? deps.proofs : undefined;
    // Through the request's database: a pushed entry's is its push's transaction (transactions.ts).
    for (const [kind, ids] of wanted) await assertOwned(request.db, request.auth, kind, [...ids], proven, proofs);
  });
}

/**
 * A Consultant's request needs their grant of the token's company active now (not revoked, not past
 * its end, accepted), looked up on every request: 403 otherwise. Their own session calls ('account')
 * need none. Through the request's database (a pushed entry's is its push's transaction, on PGlite's one
 * connection the only one it may read through).
 */
async function assertConsultantGrant(request: FastifyRequest, claims: AccessClaims) {
  if (consultantUseOf(request) === 'account') return;
  if (!(await consultantQueries.activeGrant(request.db, claims.user_id, claims.company_id))) throw forbidden(consultantMessages.accessEnded);
}

/**
 * The ids each kind of record is named by in these parameter sources (params, query, body), by
 * parameter name, at any depth (ownership.ts `forEachNamedField`: `updatedFields[].FieldID`).
 */
function namedRecords(names: Record<string, OwnedKindName>, sources: unknown[]): Map<OwnedKindName, Set<number>> {
  const wanted = new Map<OwnedKindName, Set<number>>();
  for (const source of sources) {
    forEachNamedField(source, names, (holder, key, kind) => {
      const ids = wanted.get(kind) ?? new Set<number>();
      for (const id of idsIn(holder[key])) ids.add(id);
      wanted.set(kind, ids);
    });
  }
  return wanted;
}

/**
 * The records a push's entries name in their queries and bodies (`sources`, by the parameter names of
 * ownership.ts, at any depth, as the guard reads them: `namedRecords`) that are live and the caller's
 * to act on (`<kind>:<id>`): one statement per kind for the whole push, before its entries run, so
 * each entry's guard finds them proven (transactions.ts `provenOwnership`) instead of looking them up
 * one entry at a time (a drain of culls: one statement fewer per entry). Whatever is not found here
 * (another company's, missing, named in a path or under a route's own name) is left to each entry's
 * guard, which answers 403 or 404 exactly as alone.
 */
export async function ownedAhead(db: Kysely<DB>, claims: AccessClaims, sources: unknown[]): Promise<Set<string>> {
  const proven = new Set<string>();
  for (const [kindName, ids] of namedRecords(OWNED_PARAMETERS, sources)) {
    // The company and the caller themselves need no lookup (assertOwned).
    // Read from the entries as sent, before any validation: only ids a record could have.
    const lookup = kindName === 'company' ? [] : [...ids].filter((id) => id <= MAX_RECORD_ID && (kindName !== 'user' || id !== claims.user_id));
    if (lookup.length === 0) continue;
    for (const row of await liveRows(db, kindName, lookup)) {
      if (mayActFor(claims, row.company)) proven.add(provenKey(kindName, row.id));
    }
  }
  return proven;
}

/** Whole-number ids in a parameter value: a number, a numeric string, a comma-joined list or an array. */
function idsIn(value: unknown): number[] {
  if (value === null || value === undefined || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (typeof value === 'number') return Number.isSafeInteger(value) ? [value] : [];
  if (typeof value === 'string') {
    return value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => /^\d+$/.test(part))
      .map(Number);
  }
  return [];
}

/**
 * For records whose ids the guard cannot read from parameters (e.g. files by uuid): the handler calls
 * this with the record's company once it has loaded it. Same rule as the guard.
 */
export function assertCompanyAccess(request: FastifyRequest, companyId: number) {
  if (!mayActFor(caller(request), companyId)) throw forbidden(httpMessages.otherCompany);
}

/**
 * Records a request links to a record of `companyId` (an audit event's room, batch and form response)
 * must be that company's too. The guard has already found each named record live and the caller's to
 * act on, which for anyone but a SuperAdmin means of the caller's own company, the one they act for:
 * nothing more to check. A SuperAdmin may name any company's records, so one of another company than
 * the record it is linked to is not found there: 404, as a record named with the wrong `company_id`.
 */
export async function assertLinkedWithin(request: FastifyRequest, companyId: number, named: Partial<Record<OwnedKindName, number | null | undefined>>) {
  if (caller(request).user_role !== 'SuperAdmin') return;
  for (const [kindName, id] of Object.entries(named) as Array<[OwnedKindName, number | null | undefined]>) {
    if (id === null || id === undefined) continue;
    const [row] = await liveRows(request.db, kindName, [id]);
    if (row?.company !== companyId) throw notFound(httpMessages.recordNotFound(`${kindName} ${id}`));
  }
}

/** The one tenancy rule: a caller acts for their own company; SuperAdmin for any. */
const mayActFor = (claims: AccessClaims, companyId: number) => claims.user_role === 'SuperAdmin' || claims.company_id === companyId;

/** How a record proven live and the caller's is named in a push's proofs (transactions.ts `provenOwnership`). */
const provenKey = (kindName: OwnedKindName, id: number) => `${kindName}:${id}`;

/** Of these ids of a kind, the live records and their companies. */
async function liveRows(db: Kysely<DB>, kindName: OwnedKindName, ids: number[]) {
  const kind = OWNED_KINDS[kindName];
  const { rows } = await sql<{ id: number; company: number }>`
    SELECT ${sql.ref(kind.idColumn)} AS id, ${sql.ref(kind.companyColumn)} AS company
    FROM ${sql.table(kind.table)}
    WHERE ${sql.ref(kind.idColumn)} = ANY(${ids}::integer[])
      ${kind.softDeleted ? sql`AND deleted_at IS NULL` : sql``}`.execute(db);
  return rows;
}

/**
 * `proven`: within a push, records already found live and the caller's (`ownedAhead`); those found now
 * are added. `proofs`: for a read, what this instance proved lately for the caller's company.
 */
async function assertOwned(db: Kysely<DB>, claims: AccessClaims, kindName: OwnedKindName, named: number[], proven?: Set<string>, proofs?: OwnershipProofs) {
  const ids = proven ? named.filter((id) => !proven.has(provenKey(kindName, id))) : named;
  if (ids.length === 0) return;
  // A company needs no lookup, unless SuperAdmin names one (it must exist).
  if (kindName === 'company' && claims.user_role !== 'SuperAdmin') {
    if (ids.some((id) => id !== claims.company_id)) throw forbidden(httpMessages.otherCompany);
    return;
  }
  // The caller naming themselves (most writes carry their own user_id): the token says whose they are.
  if (kindName === 'user' && ids.every((id) => id === claims.user_id)) return;
  const ownCompany = claims.user_role === 'SuperAdmin' ? undefined : claims.company_id;
  if (proofs && ownCompany !== undefined && proofs.proven(ownCompany, kindName, ids)) return;
  const generation = proofs && ownCompany !== undefined ? proofs.generation(ownCompany) : 0;
  const rows = await liveRows(db, kindName, ids);
  if (rows.some((row) => !mayActFor(claims, row.company))) throw forbidden(httpMessages.otherCompany);
  const found = new Set(rows.map((row) => row.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw notFound(httpMessages.recordNotFound(`${kindName} ${missing}`));
  for (const id of ids) proven?.add(provenKey(kindName, id));
  if (proofs && ownCompany !== undefined) proofs.remember(ownCompany, generation, kindName, ids);
}
