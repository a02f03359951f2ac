/**
 * The plant problem screens' one server read: the company's own solutions to a catalogue problem
 * (load_plant_problems by slug), with the offline case inside, so the screen never asks whether there
 * is a connection. The catalogue's own content is in the app (useCatalogue.ts); custom solutions are
 * the company's records, kept on the server only (the local store's twelve collections hold what the
 * floor needs offline), so offline the screen says they need a connection.
 */
import { useEffect, useState } from 'react';
import type { CustomSolutionRecord } from '../../../common/schemas/problems';
import { unanswered } from '../../api/errors';
import { loadPlantProblem } from '../../api/problems';
import { useApiContext } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';

export interface CustomSolutions {
  solutions: CustomSolutionRecord[];
  /** `offline`: no connection (or no answer), so they cannot be read now. */
  state: 'loading' | 'loaded' | 'offline' | 'failed';
  error: string | null;
  /** Reads them again (after one was added). */
  reload: () => void;
}

/** The company's own solutions to the catalogue problem `slug` (see the header). */
export function useCustomSolutions(companyId: number, slug: string): CustomSolutions {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const [version, setVersion] = useState(0);
  const key = `${companyId}:${slug}:${version}`;
  const [answer, setAnswer] = useState<{ key: string; solutions: CustomSolutionRecord[]; error: string | null; unanswered: boolean } | null>(null);

  useEffect(() => {
    if (!context || !online) return undefined;
    let alive = true;
    loadPlantProblem(context, { companyId, slug }).then(
      (problem) => alive && setAnswer({ key, solutions: problem.custom_solutions, error: null, unanswered: false }),
      (error: unknown) => alive && setAnswer({ key, solutions: [], error: error instanceof Error ? error.message : String(error), unanswered: unanswered(error) }),
    );
    return () => {
      alive = false;
    };
  }, [context, online, key, companyId, slug]);

  const reload = () => setVersion((current) => current + 1);
  // The last answer stays shown while a newer one is on its way (no flicker after adding one).
  const shown = answer && answer.key.startsWith(`${companyId}:${slug}:`) ? answer : null;
  if (!online || shown?.unanswered) return { solutions: [], state: 'offline', error: null, reload };
  if (!shown) return { solutions: [], state: 'loading', error: null, reload };
  if (shown.error) return { solutions: [], state: 'failed', error: shown.error, reload };
  return { solutions: shown.solutions, state: 'loaded', error: null, reload };
}
