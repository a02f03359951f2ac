/**
 * Every /api route, sent malformed and hostile input over HTTP (issue 12): values derived from each
 * route's own request schemas (tests/support/arbitraries.ts) plus hostile ones, in every way a body
 * arrives (JSON, urlencoded form, multipart, broken multipart, invalid JSON, other types), from every
 * kind of caller. Whatever the input, the server must answer within ANSWER_TIMEOUT_MS, never with a 5xx,
 * and every error in the envelope `{status: 'error', message}`.
 *
 * Deterministic (fixed seeds) and bounded: a few random requests per route, and the hostile values
 * enumerated one field at a time over a typical request, so a refusal of one field never hides the
 * next. All failures are collected and printed, grouped by cause, before the one assertion.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRoute } from '../../server/app';
import { systemActor, writer } from '../../server/db/writes';
import { OWNED_KINDS, OWNED_PARAMETERS, type OwnedKindName } from '../../server/http/ownership';
import {
  type Field,
  type FuzzContext,
  HOSTILE_HEAVY,
  HOSTILE_TEXTS,
  type Hostile,
  fieldsOf,
  hostileValuesFor,
  inputSchemaOf,
  kindOf,
  plausibleObject,
  typicalObject,
} from '../support/arbitraries';
import { createBatch, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startOpenMeteo } from '../support/open-meteo';
import { startServer, type TestServer } from '../support/server';

const SEED = 20_260_115;
/** Random requests per route (plausible values, some of them off). */
const RANDOM_RUNS = 6;
/** An answer later than this is a hang. */
const ANSWER_TIMEOUT_MS = 10_000;
/** A client that stops sending mid-body must be answered or dropped within this. */
const STALLED_CLIENT_TIMEOUT_MS = 10_000;
/**
 * Requests in flight at once. One keeps the run deterministic: requests that race each other (4 at
 * once finds `reset_all_templates` answering 500 on PostgreSQL) would fail some runs and not others.
 * Races are looked for on purpose, and only there, by the second test.
 */
const CONCURRENCY = 1;
/** The same write, sent this many times at once by the second test. */
const AT_ONCE = 3;
/**
 * The hostile values a push carries, as entries, for each field of a route: those a push handles on a
 * path of its own (ids read ahead of validation, each answer stored as JSON under its key), at most
 * PUSH_ENTRIES_PER_ROUTE (entries are requests of their own: each costs one).
 */
const PUSHED_VALUES = /lone (low )?surrogate|NUL|2\^31|2\^53/;
const PUSH_ENTRIES_PER_ROUTE = 80;
/** Routes not fuzzed, and why. None: the event stream is read for its head only (see `send`). */
const SKIPPED: Record<string, string> = {};

let server: TestServer;
let openMeteo: Awaited<ReturnType<typeof startOpenMeteo>> | undefined;
let farm: Tenant;
let other: Tenant;
/** A live record of each kind, of the fuzzing company (refreshed before each route) and of another. */
let own: Records = {};
let foreign: Records = {};

beforeAll(async () => {
  // A stalled request is answered 408 once the request timeout passes (2 minutes by default): 3 s here, so
  // the stall cases see it within their 10 s.
  // The weather calls go to a local stand-in of Open-Meteo: no test reaches the internet.
  openMeteo = await startOpenMeteo();
  server = await startServer({
    requestTimeoutMs: 3_000,
    openMeteoForecastUrl: openMeteo.base,
    openMeteoArchiveUrl: openMeteo.base,
    openMeteoGeocodingUrl: openMeteo.base,
  });
  farm = await createTenant(server);
  other = await createTenant(server);
  foreign = await ensureRecords(other);
});
afterAll(async () => {
  await server?.close();
  await openMeteo?.close();
});

// ---------------------------------------------------------------------------------------------------
// Records for requests to name, so that a typical request gets past "not found" to the handler

type Records = Partial<Record<OwnedKindName, number>>;

let fixtureCount = 0;
const fixtureName = (prefix: string) => `${prefix} ${(fixtureCount += 1)}`;

/** The newest live record of each kind of the tenant's company (ownership.ts names where each kind lives). */
async function liveRecords(tenant: Tenant): Promise<Records> {
  const records: Records = { company: tenant.companyId };
  for (const [kind, { table, companyColumn, softDeleted }] of Object.entries(OWNED_KINDS) as [OwnedKindName, (typeof OWNED_KINDS)[OwnedKindName]][]) {
    if (kind === 'company' || kind === 'user') continue;
    const { rows } = await sql<{ id: number | null }>`
      SELECT max(id) AS id FROM ${sql.table(table)}
      WHERE ${sql.ref(companyColumn)} = ${tenant.companyId} ${softDeleted ? sql`AND deleted_at IS NULL` : sql``}`.execute(server.database.db);
    const id = rows[0]?.id;
    if (id !== null && id !== undefined) records[kind] = Number(id);
  }
  return records;
}

/**
 * A live record of every kind for the tenant, made where the fuzz deleted the last one (through the
 * API where a record takes more than a row). Warns when one cannot be made: the fuzz then goes less deep.
 */
async function ensureRecords(tenant: Tenant): Promise<Records> {
  let records = await liveRecords(tenant);
  const admin = (method: string, path: string, options: { json?: unknown; query?: Record<string, string | number> }) => server.request(method, path, { token: tenant.admin.token, ...options });
  const made = async (kind: OwnedKindName, make: () => Promise<unknown>) => {
    if (records[kind] !== undefined) return;
    const answer = await make();
    records = await liveRecords(tenant);
    if (records[kind] === undefined) console.warn(`fuzz: could not make a ${kind} for company ${tenant.companyId}:`, JSON.stringify(answer));
  };
  await made('room', () => createRoom(server, tenant.companyId, fixtureName('Fuzz room')));
  await made('grid_box', () => createGrid(server, tenant.companyId, records.room as number, 2, 2, fixtureName('Fuzz grid')));
  await made('grid', () => createGrid(server, tenant.companyId, records.room as number, 2, 2, fixtureName('Fuzz grid')));
  await made('batch', () => createBatch(server, tenant.companyId, fixtureName('FUZZ')));
  await made('scan', () =>
    writer(server.database.db, systemActor(tenant.companyId)).insert('scans', { company_id: tenant.companyId, room_id: records.room ?? null, grid_id: null, grid_box_id: null, file_id: null, model: 'plantDiseaseRecognition', result: null, user_id: null }),
  );
  await made('invitation', () => admin('POST', '/create_invitation', { json: { email: `${fixtureName('fuzz').replace(' ', '-')}@example.test`, role: 'Regular' } }));
  await made('audit_event', () => admin('POST', '/add_audit_event', { json: { EventTitle: fixtureName('Fuzz event') } }));
  await made('sub_gridbox', () => admin('POST', '/create_sub_gridboxes', { query: { parent_gridbox_id: records.grid_box as number, user_id: tenant.admin.id, nx: 1, ny: 1 } }));
  await made('grid_template', () =>
    admin('POST', '/create_grid_templates', { json: { template_name: fixtureName('Fuzz layout'), template_type: 'Grid', rows: 1, columns: 2, company_id: tenant.companyId, user_id: tenant.admin.id } }),
  );
  await made('tray_template', () => admin('POST', '/create_tray_template', { json: { template_name: fixtureName('Fuzz trays'), company_id: tenant.companyId, user_id: tenant.admin.id, number_of_plants: 12 } }));
  await made('tray', () => admin('POST', '/create_tray', { json: { tray_name: fixtureName('Fuzz tray'), company_id: tenant.companyId, user_id: tenant.admin.id, number_of_plants: 24 } }));
  const form = {
    templateName: fixtureName('Fuzz form'),
    companyID: tenant.companyId,
    fields: [
      { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 0 },
      { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
    ],
  };
  await made('form_field', () => admin('POST', '/save_form_template', { json: form }));
  await made('form_template', () => admin('POST', '/save_form_template', { json: { ...form, templateName: fixtureName('Fuzz form') } }));
  await made('form_response', () =>
    admin('POST', '/submit_form', { json: { submittedBy: tenant.admin.id, GridBoxID: records.grid_box, fieldResponses: [{ fieldID: records.form_field, inputData: 'Low' }] } }),
  );
  return records;
}

// ---------------------------------------------------------------------------------------------------
// Requests and how they are judged

type CallerName = 'admin' | 'regular' | 'none' | 'garbage' | 'alg-none';

interface Probe {
  /** `POST /api/create_room`, as the catalog names it. */
  route: string;
  delivery: string;
  caller: CallerName;
  /** What is hostile about it, e.g. `body.name = "a\u0000b" (NUL)`. */
  label: string;
  method: string;
  /** Path and query, as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string | FormData | Blob;
}

interface Failure {
  probe: Probe;
  status: number | null;
  problem: string;
  /** The answer's excerpt, and its envelope's message if it has one. */
  answer: string;
  message: string;
}

const failures: Failure[] = [];
const exercised = new Set<string>();
let sent = 0;
/** Answers by route and status, printed with FUZZ_STATS=1: how far the requests got (a route answering only 400s is fuzzed shallowly). */
const statuses = new Map<string, Map<number, number>>();
const count = (route: string, status: number) => {
  const byStatus = statuses.get(route) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(route, byStatus);
};

const excerpt = (text: string, length = 300) => {
  const flat = text.replace(/\p{Cc}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return flat.length > length ? `${flat.slice(0, length)}… (${text.length} chars)` : flat;
};

/** What is wrong with an answer, or null: a 5xx, or an error outside the envelope. */
function problemWith(status: number, text: string): string | null {
  if (status >= 500) return `${status} server error`;
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} answer is not JSON`;
  }
  const { status: kind, message } = (body ?? {}) as { status?: unknown; message?: unknown };
  if (kind !== 'error' || typeof message !== 'string' || message.trim() === '') return `${status} answer is not the error envelope`;
  return null;
}

function fail(probe: Probe, status: number | null, problem: string, answer: string) {
  let message = '';
  try {
    const parsed = (JSON.parse(answer) as { message?: unknown } | null)?.message;
    if (typeof parsed === 'string') message = parsed;
  } catch {
    // Not JSON: no message to name.
  }
  failures.push({ probe, status, problem, answer: excerpt(answer), message });
}

/** Sends a probe and judges the answer. The event stream (a 200 that never ends) is read for its head only. */
async function send(probe: Probe): Promise<void> {
  exercised.add(probe.route);
  sent += 1;
  try {
    const response = await fetch(`${server.url}${probe.target}`, {
      method: probe.method,
      headers: probe.headers,
      body: probe.body,
      // The server's own answer is judged; a redirect is followed below only to see that it leads somewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    count(probe.route, response.status);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      // A redirect to the very address asked is a loop: a client following it never gets an answer.
      if (new URL(location, `${server.url}${probe.target}`).toString() === new URL(`${server.url}${probe.target}`).toString()) {
        fail(probe, response.status, `${response.status} redirects to itself (a loop)`, `Location: ${location}`);
      }
      return;
    }
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      await response.body?.cancel();
      return;
    }
    const text = await response.text();
    const problem = problemWith(response.status, text);
    if (problem) fail(probe, response.status, problem, text);
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
    if (name === 'TimeoutError') fail(probe, null, `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`, '');
    else fail(probe, null, `connection failed without an answer (${cause?.code ?? cause?.message ?? message})`, '');
  }
}

/** Runs probes `concurrency` at a time, in order of creation. */
async function sendAll(probes: Probe[], concurrency = CONCURRENCY): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next] as Probe;
      next += 1;
      await send(probe);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// ---------------------------------------------------------------------------------------------------
// Encoding values into paths, queries and bodies

/** Already percent-encoded text, put in a path or query as it is (bytes no string can carry). */
class Encoded {
  constructor(readonly text: string) {}
}

/**
 * Percent-encoding that keeps what `encodeURIComponent` refuses: a lone surrogate goes as its WTF-8
 * bytes (not UTF-8: the server must cope with them).
 */
function encodeComponent(text: string): string {
  let out = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(index, index + 2));
      index += 1;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[index] as string);
    }
  }
  return out;
}

/** A scalar as form and query text. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Repeated query keys carry a list; many more would make the head's size the test (oversizedProbes does that). */
const MAX_REPEATED_KEYS = 300;
/** Multipart parts carrying a list: past the server's 200 fields. */
const MAX_REPEATED_PARTS = 1000;

/** `key=value&…`: lists as repeated keys, objects as JSON text, null as an empty value. */
function encodeFields(fields: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value.slice(0, MAX_REPEATED_KEYS) : [value];
    for (const item of values) pairs.push(`${encodeComponent(key)}=${item instanceof Encoded ? item.text : encodeComponent(textOf(item))}`);
  }
  return pairs.join('&');
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** A well-formed multipart body (fetch writes the boundary); files for the fields that take one. */
function multipartOf(fields: Record<string, unknown>, files: string[] = []): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(key, value, 'fuzz.png');
    else for (const item of Array.isArray(value) ? value.slice(0, MAX_REPEATED_PARTS) : [value]) form.append(key, textOf(item));
  }
  for (const name of files) if (!form.has(name)) form.append(name, new Blob([PNG], { type: 'image/png' }), 'fuzz.png');
  return form;
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';

/** A multipart body as text, its closing delimiter included or not. */
function multipartText(fields: Record<string, unknown>, closed: boolean): string {
  const parts = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${textOf(value)}\r\n`);
  return parts.join('') + (closed ? `--${BOUNDARY}--\r\n` : '');
}

/** JSON text with `__proto__` and `constructor` keys (JSON.stringify would drop an own `__proto__`). */
function pollutingJson(fields: Record<string, unknown>): string {
  const rest = JSON.stringify({ zz_unknown: 'x', '': 'empty key', 'a.b': 1, ...fields }).slice(1);
  return `{"__proto__":{"company_id":${other.companyId},"user_role":"SuperAdmin","isAdmin":true},"constructor":{"prototype":{"polluted":true}},${rest}`;
}

// ---------------------------------------------------------------------------------------------------
// Routes: their fields, typical requests and hostile mutations

interface RouteShape {
  route: CatalogRoute;
  name: string;
  params: Field[];
  query: Field[];
  body: Field[];
  /** Fields taking a file (multipart only). */
  files: string[];
  hasBody: boolean;
}

interface Parts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | unknown;
}

function shapeOf(route: CatalogRoute): RouteShape {
  const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown; body?: unknown };
  const body = fieldsOf(inputSchemaOf(schema.body));
  const params = fieldsOf(inputSchemaOf(schema.params));
  // A path parameter the schema does not describe is still a field of the request.
  for (const name of [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string)) {
    if (!params.some((field) => field.name === name)) params.push({ name, schema: { type: 'string' }, required: true });
  }
  return {
    route,
    name: `${route.method} ${route.url}`,
    params,
    query: fieldsOf(inputSchemaOf(schema.querystring)),
    body,
    files: body.filter((field) => /image|file/i.test(field.name) && kindOf(field) === 'any').map((field) => field.name),
    hasBody: route.method !== 'GET',
  };
}

const callers = (): Record<CallerName, string | undefined> => ({
  admin: farm.admin.token,
  regular: farm.regular.token,
  none: undefined,
  garbage: 'not.a.token',
  // An unsigned token naming a SuperAdmin: must be refused like any other forgery.
  'alg-none': `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ user_id: 1, user_role: 'SuperAdmin', company_id: 1, exp: 4_102_444_800 })).toString('base64url')}.`,
});

/** The records a request of this route names by each field (ownership.ts, and the route's own `config.owns`). */
function contextOf(shape: RouteShape, caller: CallerName): FuzzContext {
  const names: Record<string, OwnedKindName> = { ...OWNED_PARAMETERS, ...(shape.route.config as { owns?: Record<string, OwnedKindName> } | undefined)?.owns };
  const byName = (records: Records, userId: number) =>
    Object.fromEntries(
      Object.entries(names).flatMap(([name, kind]) => {
        const id = kind === 'user' ? userId : records[kind];
        return id === undefined ? [] : [[name, id]];
      }),
    );
  return { own: byName(own, caller === 'regular' ? farm.regular.id : farm.admin.id), foreign: byName(foreign, other.admin.id) };
}

type Delivery = 'json' | 'form' | 'multipart';

interface Request {
  shape: RouteShape;
  parts: Parts;
  caller: CallerName;
  delivery: Delivery;
  label: string;
  headers?: Record<string, string>;
  /** Send the typical texts as they are (not made unique): the same request again. */
  keepTexts?: boolean;
}

function targetOf(shape: RouteShape, parts: Parts): string {
  const path = shape.route.url.replace(/:(\w+)/g, (_match: string, name: string) => {
    const value = parts.params[name];
    return value instanceof Encoded ? value.text : encodeComponent(textOf(value));
  });
  const query = encodeFields(parts.query);
  return query ? `${path}?${query}` : path;
}

/** The typical text of a field, made unique per request: a name already taken would answer 409 before the rest is looked at. */
const TYPICAL_TEXT = 'Fuzz value';
let uniqueCount = 0;
function uniqueTexts<T>(part: T): T {
  if (!part || typeof part !== 'object' || Array.isArray(part) || part instanceof Encoded) return part;
  return Object.fromEntries(Object.entries(part).map(([key, value]) => [key, value === TYPICAL_TEXT ? `${TYPICAL_TEXT} ${(uniqueCount += 1)}` : value])) as T;
}

function probeOf({ shape, parts: given, caller, delivery, label, headers = {}, keepTexts = false }: Request): Probe {
  const parts = keepTexts ? given : { ...given, query: uniqueTexts(given.query), body: uniqueTexts(given.body) };
  const token = callers()[caller];
  const base: Record<string, string> = { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
  const probe = { route: shape.name, caller, label, method: shape.route.method, target: targetOf(shape, parts), headers: base };
  if (!shape.hasBody) return { ...probe, delivery: 'query' };
  const fields = (parts.body ?? {}) as Record<string, unknown>;
  switch (delivery) {
    case 'json':
      return { ...probe, delivery, headers: { ...base, 'content-type': 'application/json' }, body: JSON.stringify(parts.body ?? {}) };
    case 'form':
      return { ...probe, delivery, headers: { ...base, 'content-type': 'application/x-www-form-urlencoded' }, body: encodeFields(fields) };
    case 'multipart':
      return { ...probe, delivery, body: multipartOf(fields, shape.files) };
  }
}

const typicalParts = (shape: RouteShape, context: FuzzContext): Parts => ({
  params: typicalObject(shape.params, context),
  query: typicalObject(shape.query, context),
  body: typicalObject(shape.body, context),
});

/** Hostile values of a path parameter: beside the field's own, lengths past Fastify's limit and bytes that do not decode. */
const HOSTILE_PATH: Hostile[] = [
  { label: '101 characters', value: '1'.repeat(101) },
  { label: '10,000 characters', value: '1'.repeat(10_000) },
  { label: '%00 (NUL)', value: new Encoded('%00') },
  { label: '% (bad escape)', value: new Encoded('%') },
  { label: '%ED%A0%80 (lone surrogate bytes)', value: new Encoded('%ED%A0%80') },
  { label: '%FF (not UTF-8)', value: new Encoded('%FF') },
  // Not `..`: fetch would resolve it away before sending; encoded slashes keep it one segment.
  { label: '..%2F..%2Fetc%2Fpasswd', value: new Encoded('..%2F..%2Fetc%2Fpasswd') },
];

/** Hostile values of a query field: as text (a query holds nothing else), lists as repeated keys. */
function hostileForQuery(field: Field): Hostile[] {
  return [...hostileValuesFor(kindOf(field)), { label: '%FF (not UTF-8)', value: new Encoded('%FF') }, { label: '%ED%A0%80 (lone surrogate bytes)', value: new Encoded('%ED%A0%80') }];
}

/** Each field, one at a time, given each hostile value (or left out) over the typical request. */
function mutations(shape: RouteShape, context: FuzzContext): Request[] {
  const typical = typicalParts(shape, context);
  const requests: Request[] = [];
  const mutate = (where: keyof Parts, field: Field, hostile: Hostile) => {
    const part = { ...(typical[where] as Record<string, unknown>), [field.name]: hostile.value };
    requests.push({ shape, parts: { ...typical, [where]: part }, caller: 'admin', delivery: 'json', label: `${where}.${field.name} = ${hostile.label}` });
  };
  for (const field of shape.params) for (const hostile of [...hostileValuesFor(kindOf(field)), ...HOSTILE_PATH]) mutate('params', field, hostile);
  for (const field of shape.query) for (const hostile of hostileForQuery(field)) mutate('query', field, hostile);
  for (const field of shape.body) for (const hostile of hostileValuesFor(kindOf(field))) mutate('body', field, hostile);
  for (const where of ['query', 'body'] as const) {
    for (const field of where === 'query' ? shape.query : shape.body) {
      if (!field.required) continue;
      const part = { ...(typical[where] as Record<string, unknown>) };
      delete part[field.name];
      requests.push({ shape, parts: { ...typical, [where]: part }, caller: 'admin', delivery: 'json', label: `${where}.${field.name} left out` });
    }
  }
  if (shape.hasBody) {
    // The same text values through the form parsers, in every field at once.
    for (const hostile of HOSTILE_TEXTS) {
      for (const delivery of ['form', 'multipart'] as const) {
        const body = Object.fromEntries([...shape.body.map((field) => field.name), 'zz_unknown'].map((name) => [name, hostile.value]));
        requests.push({ shape, parts: { ...typical, body }, caller: 'admin', delivery, label: `every body field = ${hostile.label}` });
      }
    }
    // Bodies that are not an object at all.
    for (const hostile of [{ label: '[]', value: [] }, { label: '"text"', value: 'text' }, { label: 'null', value: null }, { label: '1', value: 1 }, ...HOSTILE_HEAVY]) {
      requests.push({ shape, parts: { ...typical, body: hostile.value }, caller: 'admin', delivery: 'json', label: `body = ${hostile.label}` });
    }
  }
  return requests;
}

/** The typical request from every caller and in every delivery. */
function typicalRequests(shape: RouteShape): Request[] {
  const requests: Request[] = [];
  for (const caller of ['admin', 'regular', 'none', 'garbage', 'alg-none'] as const) {
    requests.push({ shape, parts: typicalParts(shape, contextOf(shape, caller)), caller, delivery: 'json', label: 'typical request' });
  }
  const parts = typicalParts(shape, contextOf(shape, 'admin'));
  requests.push({ shape, parts: { ...parts, query: { ...parts.query, zz_unknown: 'x' } }, caller: 'admin', delivery: 'json', label: 'typical request, an unknown query key' });
  if (shape.hasBody) {
    for (const delivery of ['form', 'multipart'] as const) requests.push({ shape, parts, caller: 'admin', delivery, label: 'typical request' });
    // Body fields in the query instead (some calls read either).
    requests.push({ shape, parts: { ...parts, query: { ...parts.query, ...(parts.body as object) }, body: {} }, caller: 'admin', delivery: 'json', label: 'body fields in the query' });
  }
  return requests;
}

/** Random requests from the schemas' plausible values: callers weighted to the Admin. */
function randomRequests(shape: RouteShape, seed: number): Request[] {
  const context = contextOf(shape, 'admin');
  const arbitrary = fc.record({
    caller: fc.constantFrom<CallerName>('admin', 'admin', 'admin', 'admin', 'regular', 'regular', 'none', 'garbage'),
    delivery: fc.constantFrom<Delivery>('json', 'json', 'form', 'multipart'),
    params: plausibleObject(shape.params, context),
    query: plausibleObject(shape.query, context),
    body: plausibleObject(shape.body, context),
  });
  return fc.sample(arbitrary, { seed, numRuns: RANDOM_RUNS }).map(({ caller, delivery, ...parts }, run) => ({ shape, parts, caller, delivery, label: `random run ${run} (seed ${seed})` }));
}

/** Bodies no parser should choke on: broken, mistyped, polluting. */
function rawBodyProbes(shape: RouteShape): Probe[] {
  if (!shape.hasBody) return [];
  const parts = typicalParts(shape, contextOf(shape, 'admin'));
  const fields = parts.body as Record<string, unknown>;
  const probe = probeOf({ shape, parts, caller: 'admin', delivery: 'json', label: '' });
  const raw = (delivery: string, contentType: string, body: string, label: string): Probe => ({ ...probe, delivery, label, headers: { ...probe.headers, 'content-type': contentType }, body });
  const form = new FormData();
  form.append('__proto__', '{"polluted":true}');
  form.append('constructor', 'x');
  for (const [key, value] of Object.entries(fields)) form.append(key, textOf(value));
  return [
    raw('multipart without boundary', 'multipart/form-data', multipartText(fields, true), 'well-formed parts, no boundary declared'),
    raw('multipart cut short', `multipart/form-data; boundary=${BOUNDARY}`, multipartText(fields, false), 'no closing delimiter'),
    raw('multipart cut short', `multipart/form-data; boundary=${BOUNDARY}`, multipartText(fields, true).slice(0, 60), 'cut inside the first part'),
    raw('multipart garbage', `multipart/form-data; boundary=${BOUNDARY}`, 'this is not multipart at all', 'no part at all'),
    raw('multipart bad part header', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`, 'a part without a name'),
    raw('invalid JSON', 'application/json', '{"name": ', 'truncated JSON'),
    raw('invalid JSON', 'application/json', "{'name': 1}", 'single quotes'),
    raw('invalid JSON', 'application/json', '', 'empty JSON body'),
    raw('text/plain', 'text/plain', 'name=Fuzz', 'text body'),
    raw('application/xml', 'application/xml', '<room><name>Fuzz</name></room>', 'XML body'),
    // A Blob without a type: fetch then sends no Content-Type at all.
    { ...probe, delivery: 'no content type', label: 'JSON without a content type', headers: probe.headers, body: new Blob([JSON.stringify(fields)]) },
    raw('json charset', 'application/json; charset=utf-16', JSON.stringify(fields), 'a charset JSON is never in'),
    raw('json polluting', 'application/json', pollutingJson(fields), '__proto__ and constructor keys, unknown keys'),
    raw('form polluting', 'application/x-www-form-urlencoded', `__proto__[isAdmin]=1&constructor[prototype][x]=1&__proto__=x&${encodeFields(fields)}`, '__proto__ and constructor keys'),
    { ...probe, delivery: 'multipart polluting', label: '__proto__ and constructor fields', headers: probe.headers, body: form },
  ];
}

/** Files where text is expected, and files that are not what they say. */
function fileProbes(shape: RouteShape): Probe[] {
  if (!shape.hasBody) return [];
  const parts = typicalParts(shape, contextOf(shape, 'admin'));
  const fields = parts.body as Record<string, unknown>;
  const probe = probeOf({ shape, parts, caller: 'admin', delivery: 'json', label: '' });
  const withFile = (label: string, name: string, file: Blob, filename: string): Probe => {
    const form = multipartOf(fields, shape.files.filter((field) => field !== name));
    form.set(name, file, filename);
    return { ...probe, delivery: 'multipart', label, headers: probe.headers, body: form };
  };
  const probes = shape.body.filter((field) => !shape.files.includes(field.name)).map((field) => withFile(`body.${field.name} = a file`, field.name, new Blob([PNG], { type: 'image/png' }), 'fuzz.png'));
  for (const name of shape.files) {
    probes.push(
      withFile(`body.${name} = text claiming to be a PNG`, name, new Blob(['not an image'], { type: 'image/png' }), 'fuzz.png'),
      withFile(`body.${name} = an empty file`, name, new Blob([]), 'empty.png'),
      withFile(`body.${name} = a file named ../../etc/passwd`, name, new Blob([PNG], { type: 'image/png' }), '../../etc/passwd'),
      withFile(`body.${name} = an SVG with a script`, name, new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: 'image/svg+xml' }), 'x.svg'),
    );
  }
  return probes;
}

/** Hostile X-Acted-At and Idempotency-Key headers on a typical write. */
function headerProbes(shape: RouteShape): Probe[] {
  if (!shape.hasBody) return [];
  const parts = typicalParts(shape, contextOf(shape, 'admin'));
  const request = (label: string, headers: Record<string, string>) => probeOf({ shape, parts, caller: 'admin', delivery: 'json', label, headers });
  const actedAt = ['yesterday', '2026-02-31T00:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '2026-01-15T10:00:00+23:59', '-271821-04-20T00:00:00Z', 'x'.repeat(1000)];
  const keys = ['short', 'k'.repeat(300), 'a key with spaces', 'key/with?odd#chars'];
  const replayed = `fuzz-replay-${shape.name.replace(/[^A-Za-z0-9]/g, '-')}`.slice(0, 200);
  return [
    ...actedAt.map((value) => request(`X-Acted-At: ${excerpt(value, 40)}`, { 'x-acted-at': value })),
    ...keys.map((value) => request(`Idempotency-Key: ${excerpt(value, 40)}`, { 'idempotency-key': value })),
    request('Idempotency-Key used once', { 'idempotency-key': replayed }),
    { ...probeOf({ shape, parts: { ...parts, query: { ...parts.query, zz_other: 1 } }, caller: 'admin', delivery: 'json', label: '', headers: { 'idempotency-key': replayed } }), label: 'Idempotency-Key reused for a different request' },
  ];
}

/**
 * The route's hostile mutations carried by one sync push (each entry is answered as if sent alone):
 * the push's results must hold no 5xx and only envelopes.
 */
function pushProbe(shape: RouteShape, requests: Request[], seed: number): Probe | null {
  if (!shape.hasBody || shape.route.url.startsWith('/api/sync') || shape.params.length > 0) return null;
  const entries = pushedMutations(requests)
    .map((request, index) => ({
      id: `fuzz-${seed}-${index}`,
      method: shape.route.method,
      path: shape.route.url.slice('/api'.length),
      query: Object.fromEntries(Object.entries(uniqueTexts(request.parts.query)).map(([key, value]) => [key, value instanceof Encoded ? value.text : textOf(value)])),
      body: { kind: 'json', data: uniqueTexts(request.parts.body) },
    }));
  if (entries.length === 0) return null;
  const token = farm.admin.token;
  return {
    route: shape.name,
    delivery: 'sync push',
    caller: 'admin',
    label: `${entries.length} hostile mutations as push entries`,
    method: 'POST',
    target: '/api/sync/push',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entries }),
  };
}

const pushedMutations = (requests: Request[]) => requests.filter((request) => request.delivery === 'json' && PUSHED_VALUES.test(request.label)).slice(0, PUSH_ENTRIES_PER_ROUTE);

/** Sends a push of hostile entries and judges each entry's result as if it had been sent alone. */
async function sendPush(probe: Probe, labels: string[]): Promise<void> {
  sent += 1;
  try {
    const response = await fetch(`${server.url}${probe.target}`, { method: probe.method, headers: probe.headers, body: probe.body, signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS * 3) });
    const text = await response.text();
    count('POST /api/sync/push (pushes of hostile entries)', response.status);
    const problem = problemWith(response.status, text);
    if (problem) return await blameEntries(probe, labels, response.status, problem, text);
    if (response.status >= 400) return;
    const { results = [] } = JSON.parse(text) as { results?: { id: string; status: number; body: unknown }[] };
    for (const [index, result] of results.entries()) {
      count(`${probe.route} (push entries)`, result.status);
      const entryProblem = problemWith(result.status, JSON.stringify(result.body));
      if (entryProblem) fail({ ...probe, label: `push entry ${index}: ${labels[index] ?? ''}` }, result.status, `as a push entry: ${entryProblem}`, JSON.stringify(result.body));
    }
  } catch (error) {
    fail(probe, null, `push failed without an answer (${(error as Error).message})`, '');
  }
}

/** A push that failed as a whole: each entry is pushed alone to name the ones that fail it. */
async function blameEntries(probe: Probe, labels: string[], status: number, problem: string, text: string): Promise<void> {
  const { entries } = JSON.parse(probe.body as string) as { entries: unknown[] };
  let blamed = 0;
  for (const [index, entry] of entries.entries()) {
    const response = await fetch(`${server.url}${probe.target}`, { method: 'POST', headers: probe.headers, body: JSON.stringify({ entries: [entry] }), signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
    const answer = await response.text();
    const alone = problemWith(response.status, answer);
    if (alone) {
      blamed += 1;
      fail({ ...probe, label: `push of entry ${index} alone: ${labels[index] ?? ''}`, body: JSON.stringify({ entries: [entry] }) }, response.status, `the push itself: ${alone}`, answer);
    }
  }
  if (blamed === 0) fail(probe, status, `the push itself: ${problem}`, text);
}

// ---------------------------------------------------------------------------------------------------
// Requests the HTTP parser meets before any route: over-long heads, stalled bodies

interface RawAnswer {
  status: number | null;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
  timedOut: boolean;
}

/**
 * Sends `head` and `body` on a raw socket, then half-closes it (`end`) or keeps it open, and waits for
 * an answer or the connection's end, at most `timeoutMs`.
 */
function rawExchange(head: string, body: string, end: boolean, timeoutMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let settled = false;
    const settle = (closed: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : null, body: received.split('\r\n\r\n').slice(1).join('\r\n\r\n'), closed, timedOut });
    };
    const timer = setTimeout(() => settle(false, true), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      // A whole answer with a Content-Length is an answer, even if the connection stays open.
      const [answerHead = '', answerBody] = received.split(/\r\n\r\n(.*)/s);
      const length = /content-length: *(\d+)/i.exec(answerHead)?.[1];
      if (answerBody !== undefined && length !== undefined && Buffer.byteLength(answerBody) >= Number(length)) settle(false, false);
    });
    socket.on('close', () => settle(true, false));
    socket.on('error', () => settle(true, false));
    socket.write(head + body, () => {
      if (end) socket.end();
    });
  });
}

interface RawCase {
  label: string;
  route: string;
  head: string;
  body: string;
  end: boolean;
}

/** Bodies that stop before the length they declare: the client then half-closes, or waits. */
function stalledCases(): RawCase[] {
  const host = new URL(server.url).host;
  const authorization = `Authorization: Bearer ${farm.admin.token}\r\n`;
  const multipart = multipartText({ name: 'Fuzz room', description: 'Stalled' }, true);
  const json = JSON.stringify({ name: 'Fuzz room', description: 'Stalled' });
  const cases: RawCase[] = [];
  for (const end of [true, false]) {
    const how = end ? 'then half-closes' : 'then waits';
    cases.push(
      {
        label: `multipart, Content-Length of the whole, half the body sent, ${how}`,
        route: 'POST /api/create_room',
        head: `POST /api/create_room?company_id=${farm.companyId} HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${multipart.length}\r\n\r\n`,
        body: multipart.slice(0, Math.floor(multipart.length / 2)),
        end,
      },
      {
        label: `chunked multipart, one chunk sent, ${how}`,
        route: 'POST /api/create_room',
        head: `POST /api/create_room?company_id=${farm.companyId} HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        body: `${(40).toString(16)}\r\n${multipart.slice(0, 40)}\r\n`,
        end,
      },
      {
        label: `JSON, Content-Length 1000, 10 bytes sent, ${how}`,
        route: 'POST /api/create_room',
        head: `POST /api/create_room?company_id=${farm.companyId} HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
        body: json.slice(0, 10),
        end,
      },
      {
        label: `public route, multipart cut, ${how}`,
        route: 'POST /api/login',
        head: `POST /api/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: 500\r\n\r\n`,
        body: multipartText({ email: 'fuzz@example.test' }, false),
        end,
      },
    );
  }
  return cases;
}

async function judgeRaw(rawCase: RawCase, timeoutMs: number): Promise<void> {
  exercised.add(rawCase.route);
  sent += 1;
  const answer = await rawExchange(rawCase.head, rawCase.body, rawCase.end, timeoutMs);
  const probe: Probe = { route: rawCase.route, delivery: 'raw socket', caller: 'admin', label: rawCase.label, method: rawCase.route.split(' ')[0] as string, target: rawCase.route.split(' ')[1] as string, headers: {}, body: rawCase.body };
  if (answer.timedOut) return fail(probe, null, `no answer and no close within ${timeoutMs / 1000} s`, answer.body);
  // Closed without an answer: no hang, nothing to judge.
  if (answer.status === null) return;
  const problem = problemWith(answer.status, answer.body);
  if (problem) fail(probe, answer.status, problem, answer.body);
}

/** Heads over Node's 16 kB limit and path parameters over Fastify's 100 characters. */
function oversizedProbes(): Probe[] {
  const admin = { authorization: `Bearer ${farm.admin.token}` };
  const probe = (route: string, label: string, method: string, target: string, headers: Record<string, string>): Probe => ({ route, delivery: 'oversized', caller: 'admin', label, method, target, headers });
  return [
    probe('GET /api/get_room_scroll', 'query string making the head over 16 kB', 'GET', `/api/get_room_scroll?company_id=${farm.companyId}&room_id=${'1'.repeat(17_000)}`, admin),
    probe('POST /api/create_room', 'query string making the head over 16 kB', 'POST', `/api/create_room?company_id=${farm.companyId}&name=${'x'.repeat(17_000)}`, admin),
    probe('GET /api/health', '20 kB bearer token', 'GET', '/api/health', { authorization: `Bearer ${'a'.repeat(20_000)}` }),
    probe('GET /api/load_users', '20 kB bearer token', 'GET', `/api/load_users?company_id=${farm.companyId}`, { authorization: `Bearer ${'a'.repeat(20_000)}` }),
    probe('POST /api/refresh_token', '20 kB bearer token', 'POST', '/api/refresh_token', { authorization: `Bearer ${'a'.repeat(20_000)}` }),
    probe('GET /api/health', '40 headers of 500 bytes', 'GET', '/api/health', Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`x-fuzz-${index}`, 'v'.repeat(500)]))),
    probe('DELETE /api/delete_audit_event/:id', 'path parameter of 101 characters', 'DELETE', `/api/delete_audit_event/${'1'.repeat(101)}`, admin),
    probe('GET /api/files/:id', 'path parameter of 10,000 characters', 'GET', `/api/files/${'a'.repeat(10_000)}`, admin),
    probe('GET /api/no_such_route', 'path of 10,000 characters under /api', 'GET', `/api/${'a'.repeat(10_000)}`, admin),
  ];
}

/** Tokens as the credential itself: the session calls read the bearer token as their input. */
function tokenProbes(shapes: RouteShape[]): Probe[] {
  const tokens = ['', ' ', 'a'.repeat(4_000), 'not.a.token', '....', 'eyJ.eyJ.sig', `${farm.admin.refreshToken}x`];
  const schemes = ['Bearer', 'bearer', 'Basic', ''];
  const probes: Probe[] = [];
  for (const shape of shapes.filter((candidate) => ['/api/refresh_token', '/api/logout', '/api/load_users'].includes(candidate.route.url))) {
    for (const token of tokens) {
      for (const scheme of schemes) {
        const parts = typicalParts(shape, contextOf(shape, 'admin'));
        const probe = probeOf({ shape, parts, caller: 'none', delivery: 'json', label: '' });
        probes.push({ ...probe, label: `Authorization: ${scheme} ${excerpt(token, 30)}`, headers: { ...probe.headers, authorization: `${scheme} ${token}`.trim() || ' ' } });
      }
    }
  }
  return probes;
}

// ---------------------------------------------------------------------------------------------------
// Reporting

/**
 * What a failure is grouped under: the problem and the answer's message (the addresses Fastify puts in
 * its own messages left out), and for a 5xx, whose message says nothing, the hostile value sent.
 */
function causeOf({ probe, status, problem, message }: Failure): string {
  const said = message ? ` — "${excerpt(message.replace(/'[^']*'/g, "'…'"), 120)}"` : '';
  const value = status !== null && status >= 500 ? ` — ${probe.label.includes(' = ') ? probe.label.slice(probe.label.indexOf(' = ') + 3) : probe.label}` : '';
  return `${problem}${said}${value}`;
}

function report(list: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const failure of list) {
    const key = causeOf(failure);
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  const lines = [`${list.length} failing requests of ${sent}, in ${groups.size} groups:`];
  for (const [key, members] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    lines.push('', `## ${key} (${members.length})`);
    for (const { probe, status, answer } of members) {
      const body = typeof probe.body === 'string' ? ` body ${excerpt(probe.body, 160)}` : probe.body instanceof FormData ? ' (multipart)' : '';
      lines.push(`- ${probe.method} ${excerpt(probe.target, 160)} [${probe.delivery}, ${probe.caller}] ${probe.label}:${body} → ${status ?? 'no answer'} ${answer}`);
    }
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------

/** The /api routes of the catalog, each with its fields. */
const fuzzedShapes = () => server.app.routeCatalog.filter((route) => route.url.startsWith('/api') && !SKIPPED[`${route.method} ${route.url}`]).map(shapeOf);

/** Prints the failures since `from`, and states them as the test's one assertion. */
function expectNoFailures(from: number) {
  const found = failures.slice(from);
  if (found.length > 0) console.log(report(found));
  expect(found.map(({ probe, status, problem }) => `${probe.route} [${probe.delivery}] ${probe.label} → ${status ?? '-'} ${problem}`)).toEqual([]);
}

describe('fuzzing every /api route', () => {
  // About 140 probes per route, 240 routes: two minutes alone on 2 cores, more beside another test file.
  it('answers all malformed and hostile input within the time limit, never 5xx, every error in the envelope', { timeout: 600_000 }, async () => {
    const started = Date.now();
    const from = failures.length;
    const shapes = fuzzedShapes();
    // Stalled clients are waited for in the background while the rest runs.
    const stalled = Promise.all(stalledCases().map((rawCase) => judgeRaw(rawCase, STALLED_CLIENT_TIMEOUT_MS)));

    const elapsed = new Map<string, number>();
    for (const [index, shape] of shapes.entries()) {
      const routeStarted = Date.now();
      const seed = SEED + index;
      own = await ensureRecords(farm);
      const hostile = mutations(shape, contextOf(shape, 'admin'));
      await sendAll([
        ...[...typicalRequests(shape), ...randomRequests(shape, seed), ...hostile].map(probeOf),
        ...rawBodyProbes(shape),
        ...fileProbes(shape),
        ...headerProbes(shape),
      ]);
      const push = pushProbe(shape, hostile, seed);
      if (push) await sendPush(push, pushedMutations(hostile).map((request) => request.label));
      elapsed.set(shape.name, Date.now() - routeStarted);
    }
    await sendAll([...oversizedProbes(), ...tokenProbes(shapes)]);
    await stalled;

    const catalog = server.app.routeCatalog.filter((route) => route.url.startsWith('/api')).map((route) => `${route.method} ${route.url}`);
    console.log(`fuzz: ${sent} requests to ${exercised.size} routes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (process.env.FUZZ_STATS) {
      for (const [route, byStatus] of statuses) console.log(`${route}: ${[...byStatus].sort((a, b) => a[0] - b[0]).map(([status, n]) => `${status}×${n}`).join(' ')} (${elapsed.get(route) ?? '-'} ms)`);
    }
    expect(catalog.filter((route) => !exercised.has(route) && !SKIPPED[route]), 'routes not fuzzed').toEqual([]);
    expectNoFailures(from);
  });

  it(`answers the same write sent ${AT_ONCE} times at once (a double tap, a retry racing the original) without a 5xx`, { timeout: 60_000 }, async () => {
    const from = failures.length;
    for (const shape of fuzzedShapes().filter((candidate) => candidate.hasBody && !candidate.route.url.startsWith('/api/sync/'))) {
      own = await ensureRecords(farm);
      const probe = probeOf({ shape, parts: typicalParts(shape, contextOf(shape, 'admin')), caller: 'admin', delivery: 'json', label: `typical request, ${AT_ONCE} at once`, keepTexts: true });
      await sendAll(Array.from({ length: AT_ONCE }, () => ({ ...probe, delivery: `json ×${AT_ONCE} at once` })), AT_ONCE);
    }
    expectNoFailures(from);
  });
});
