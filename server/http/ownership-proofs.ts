/**
 * Rooms and grids the tenancy guard (guards.ts) found live and of a company, remembered by each
 * instance so that the reads every tablet makes of the same room (its open problems, its floor) do not
 * look them up again each time: on the embedded database a lookup is most of such a read's time.
 *
 * Only reads use them (a write's request looks its records up in its own transaction), and only for
 * callers of the company itself (a SuperAdmin's reads look up as before). A company's proofs are
 * forgotten as its kept answers are (answer-cache.ts): at the commit of any write of the company on
 * this instance, on every instance when a row of a proven kind's table of the company changes (a room
 * deleted elsewhere), and after TTL_MS. A lookup begun before such a change does not remember what it
 * found (a generation per company). Records never move to another company, so a proof is only ever
 * outdated by a deletion, which every one of these paths sees.
 */
import type { ChangeHub } from '../domains/replication/changes';
import { OWNED_KINDS, type OwnedKindName } from './ownership';

/** The kinds whose proofs are kept: the floor's, named by the reads every tablet repeats. */
export const PROVEN_KINDS: ReadonlySet<OwnedKindName> = new Set(['room', 'grid']);

const TTL_MS = 60_000;
/** Proofs kept per instance, all companies; past it they are all forgotten (and found again). */
const MAX_PROOFS = 100_000;

export interface OwnershipProofs {
  /** The company's generation: taken before a lookup and given to `remember`. */
  generation(companyId: number): number;
  /** Whether every id of `kind` is proven live and the company's. */
  proven(companyId: number, kind: OwnedKindName, ids: readonly number[]): boolean;
  /** Remembers ids a lookup begun at `generation` found live and the company's, unless the company changed since. */
  remember(companyId: number, generation: number, kind: OwnedKindName, ids: readonly number[]): void;
  /** Forgets the company's proofs (a write of it committed); no company: every company's. */
  drop(companyId?: number): void;
  close(): void;
}

export function createOwnershipProofs(changes: ChangeHub, now: () => number = Date.now): OwnershipProofs {
  /** Per company: `${kind}:${id}` → until when the proof holds. */
  const proofs = new Map<number, Map<string, number>>();
  const generations = new Map<number, number>();
  let size = 0;

  const drop = (companyId?: number) => {
    if (companyId === undefined) {
      proofs.clear();
      size = 0;
      for (const company of generations.keys()) generations.set(company, (generations.get(company) ?? 0) + 1);
      return;
    }
    generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
    size -= proofs.get(companyId)?.size ?? 0;
    proofs.delete(companyId);
  };
  const tables = [...new Set([...PROVEN_KINDS].map((kind) => OWNED_KINDS[kind].table))];
  const stops = tables.map((table) => changes.onTableChange(table, drop));

  return {
    generation: (companyId) => generations.get(companyId) ?? 0,
    proven(companyId, kind, ids) {
      const kept = proofs.get(companyId);
      if (!kept || !PROVEN_KINDS.has(kind)) return false;
      const at = now();
      return ids.every((id) => (kept.get(`${kind}:${id}`) ?? 0) > at);
    },
    remember(companyId, generation, kind, ids) {
      if (!PROVEN_KINDS.has(kind) || (generations.get(companyId) ?? 0) !== generation) return;
      if (size + ids.length > MAX_PROOFS) drop();
      const kept = proofs.get(companyId) ?? new Map<string, number>();
      proofs.set(companyId, kept);
      const until = now() + TTL_MS;
      for (const id of ids) {
        const key = `${kind}:${id}`;
        if (!kept.has(key)) size += 1;
        kept.set(key, until);
      }
    },
    drop,
    close: () => {
      for (const stop of stops) stop();
    },
  };
}
