/**
 * The company's own solutions to a catalogue problem, read from the company's local document (its
 * `custom_solutions`, kept current by the sync worker), so they show offline and one added here shows at
 * once. The catalogue's own content is in the app (useCatalogue.ts).
 */
import { useMemo } from 'react';
import type { CustomSolutionRecord } from '../../../common/schemas/problems';
import { useSyncStatus } from '../../sync/sync-store';
import { useCompany } from '../company/useCompany';

/** A solution with its way to the server, shown as other queued changes are. */
export interface ShownSolution extends CustomSolutionRecord {
  /** Added on this tablet and not on the server yet. */
  waiting: boolean;
  /** The server's message when it refused it (the entry waits in the failed list to be retried or discarded). */
  refused: string | null;
}

/**
 * Whether the server holds the solution: its record carries the server's integer id, the tablet's
 * optimistic copy its client id until the server's copy replaces it (src/api/problems.ts addCustomSolution).
 */
export const solutionReachedServer = (solution: Pick<CustomSolutionRecord, 'id'>) => typeof solution.id === 'number';

/** The company's own solutions to the catalogue problem `slug`, oldest first; `loading` until the company's document is read. */
export function useCustomSolutions(companyId: number, slug: string): { solutions: ShownSolution[]; loading: boolean } {
  const { document: company, loading } = useCompany(companyId);
  const failed = useSyncStatus((status) => status.failed);
  const all = company?.custom_solutions;
  const solutions = useMemo(
    () =>
      (all ?? [])
        .filter((solution) => solution.problem_slug === slug)
        .map((solution) => ({
          ...solution,
          waiting: !solutionReachedServer(solution),
          refused: failed.find((entry) => entry.creates.includes(solution.client_id))?.error ?? null,
        })),
    [all, failed, slug],
  );
  return { solutions, loading };
}
