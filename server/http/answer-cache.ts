/**
 * Answers that are large, read by every tablet and changed far less often than read (the floor plan:
 * a company's rooms, grids and thousands of boxes, load_room_grids_boxes; a room's open plant
 * problems, get_unresolved_problems_for_room), kept by each server
 * instance as the bytes it sent, so that the next read of the same answer costs no query, no
 * serialization and no compression: one room of 1,000 boxes is ~100 kB of JSON, a company of 10,000
 * boxes ~1.5 MB. Its brotli and gzip forms are made once, when a client first asks for them, at a
 * higher quality than answers compressed as they go (app.ts), since they are made once for many reads.
 *
 * What may change an answer drops every answer of that company (whichever answer it changed; writes
 * are rare beside reads):
 * - on the instance that wrote it, at the commit of any write of that company (transactions.ts), so
 *   a tablet reads its own change at once;
 * - on every instance, through the change hub (the track_change trigger's NOTIFY, delivered after
 *   the commit) when a row of one of the answers' tables changes.
 * A read that started before a drop does not store what it read (a generation per company), so a
 * change is never hidden by a read that raced it; reads of an answer that is being made wait for it
 * rather than make it again (twenty tablets opening a room whose answer was just dropped run one
 * query, not twenty), unless a drop came since it was begun; entries also expire after TTL_MS, which bounds how
 * long an instance could serve an answer whose notification it missed. The oldest entries go first
 * when the bytes kept pass MAX_BYTES.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChangeHub } from '../domains/replication/changes';

const TTL_MS = 60_000;
/** Bytes of answers kept per instance, all forms: some hundred companies' floors of 10,000 boxes. */
const MAX_BYTES = 128 * 1024 * 1024;

/** The compressed forms kept, in the order preferred when a client accepts several. */
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
const ENCODERS: Record<Encoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  gzip: (bytes) => gzipSync(bytes, { level: 6 }),
};

/** An answer as kept: its JSON's bytes and, once asked for, their compressed forms. */
export interface KeptAnswer {
  readonly json: Buffer;
  encoded(encoding: Encoding): Buffer;
}

export interface AnswerCache {
  /**
   * The answer `key` of the company: kept, or made by `produce` (its JSON text; kept unless the
   * company's data changed while it was made).
   */
  through(companyId: number, key: string, produce: () => Promise<string>): Promise<KeptAnswer>;
  /** Forgets every answer of the company (a write of it committed); no company: every answer. */
  drop(companyId?: number): void;
  close(): void;
}

interface Entry {
  companyId: number;
  key: string;
  answer: KeptAnswer;
  /** Bytes of the answer's forms made so far. */
  bytes: number;
  until: number;
}

/** An answer cache dropping a company's answers whenever a row of `tables` of that company changes. */
export function createAnswerCache(changes: ChangeHub, tables: readonly string[], now: () => number = Date.now): AnswerCache {
  // Insertion order is age: a stored entry is deleted and set again, so the first key is the oldest.
  const entries = new Map<string, Entry>();
  const keysOf = new Map<number, Set<string>>();
  const generations = new Map<number, number>();
  /** Answers being made, with the company's generation when they were begun. */
  const making = new Map<string, { generation: number; answer: Promise<KeptAnswer> }>();
  let bytes = 0;

  const entryKey = (companyId: number, key: string) => `${companyId}\u0000${key}`;
  const remove = (fullKey: string) => {
    const entry = entries.get(fullKey);
    if (!entry) return;
    entries.delete(fullKey);
    bytes -= entry.bytes;
    keysOf.get(entry.companyId)?.delete(entry.key);
  };
  const drop = (companyId?: number) => {
    if (companyId === undefined) {
      entries.clear();
      keysOf.clear();
      bytes = 0;
      for (const company of generations.keys()) generations.set(company, (generations.get(company) ?? 0) + 1);
      return;
    }
    generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
    for (const key of [...(keysOf.get(companyId) ?? [])]) remove(entryKey(companyId, key));
    keysOf.delete(companyId);
  };
  /** An answer of these bytes, whose compressed forms count in the cache's size as they are made. */
  const keptAnswer = (json: Buffer, entry: () => Entry | undefined): KeptAnswer => {
    const forms = new Map<Encoding, Buffer>();
    return {
      json,
      encoded(encoding) {
        let form = forms.get(encoding);
        if (!form) {
          form = ENCODERS[encoding](json);
          forms.set(encoding, form);
          const kept = entry();
          if (kept) {
            kept.bytes += form.length;
            bytes += form.length;
          }
        }
        return form;
      },
    };
  };
  const keep = (companyId: number, key: string, answer: KeptAnswer) => {
    const fullKey = entryKey(companyId, key);
    remove(fullKey);
    while (bytes + answer.json.length > MAX_BYTES) {
      const oldest = entries.keys().next().value;
      if (oldest === undefined) break;
      remove(oldest);
    }
    entries.set(fullKey, { companyId, key, answer, bytes: answer.json.length, until: now() + TTL_MS });
    bytes += answer.json.length;
    const keys = keysOf.get(companyId) ?? new Set<string>();
    keys.add(key);
    keysOf.set(companyId, keys);
  };
  const stops = tables.map((table) => changes.onTableChange(table, drop));

  return {
    through(companyId, key, produce) {
      const fullKey = entryKey(companyId, key);
      const kept = entries.get(fullKey);
      if (kept && kept.until > now()) return Promise.resolve(kept.answer);
      const generation = generations.get(companyId) ?? 0;
      const begun = making.get(fullKey);
      if (begun?.generation === generation) return begun.answer;
      const answer = produce().then((text) => {
        const json = Buffer.from(text);
        // Counted in the cache's size only while it is the entry kept for its key.
        const made = keptAnswer(json, () => (entries.get(fullKey)?.answer === made ? entries.get(fullKey) : undefined));
        if ((generations.get(companyId) ?? 0) === generation && json.length <= MAX_BYTES) keep(companyId, key, made);
        return made;
      });
      making.set(fullKey, { generation, answer });
      const forget = () => {
        if (making.get(fullKey)?.answer === answer) making.delete(fullKey);
      };
      answer.then(forget, forget);
      return answer;
    },
    drop,
    close: () => {
      for (const stop of stops) stop();
    },
  };
}

/** The compressed form the request accepts, most preferred first (q=0 refuses one); none: identity. */
function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    accepted.set(name.trim(), quality === undefined ? 1 : Number(quality));
  }
  const wildcard = accepted.get('*');
  return ENCODINGS.find((encoding) => (accepted.get(encoding) ?? wildcard ?? 0) > 0) ?? null;
}

/** Sends a kept answer as JSON, in the compressed form the client accepts (made once per answer). */
export function sendKeptAnswer(request: FastifyRequest, reply: FastifyReply, answer: KeptAnswer): FastifyReply {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  const encoding = acceptedEncoding(request);
  // A form already compressed passes @fastify/compress untouched (it skips a set Content-Encoding).
  if (encoding) return reply.header('content-encoding', encoding).send(answer.encoded(encoding));
  return reply.send(answer.json);
}
