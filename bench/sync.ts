/**
 * Sync figures for `npm run bench`: how fast a tablet's outbox drains (5,000 queued changes) and how
 * long a new tablet's first full pull of 100,000 grid boxes takes. The engine runs in Node as in the
 * sync tests (RxDB memory storage, the outbox on fake-indexeddb), against the real server over HTTP.
 */
// First: IndexedDB for the outbox in Node.
import 'fake-indexeddb/auto';
import { boxClientId } from '../common/client-ids';
import { updateCullingStatus } from '../src/api/grids';
import { startTablet } from '../tests/support/client';

export type Call = <T>(method: string, path: string, query: Record<string, string | number>, body?: object) => Promise<T>;

/** The bench's signed-in Admin, as /login answered. */
export interface SignedIn {
  access_token: string;
  refresh_token: string;
  user_id: number;
  user_role: string;
  company_id: number;
}

const QUEUED = Number(process.env.BENCH_QUEUED ?? 5_000);
const PULLED = { grids: 10, nx: 100, ny: 100 };

/** Checks `condition` every `everyMs` (counting 100,000 documents is not free) until it holds. */
export async function until(condition: () => Promise<boolean>, timeoutMs: number, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The bench's user as a test tablet signs in with it. */
export const tabletUser = (session: SignedIn) => ({ id: session.user_id, email: '', password: '', role: session.user_role as 'Admin', companyId: session.company_id, token: session.access_token, refreshToken: session.refresh_token });

/** A figure beside its goal (issue 11's goals), marked when it falls short. */
export function againstGoal(figure: number, goal: number, unit: string, direction: 'at least' | 'at most'): string {
  const met = direction === 'at least' ? figure >= goal : figure <= goal;
  return `${figure.toLocaleString('en')} ${unit} (goal: ${direction} ${goal.toLocaleString('en')}; ${met ? 'met' : 'NOT MET'})`;
}

/** The drain goal per database: PGlite has one connection, PostgreSQL many. */
export const DRAIN_GOAL = { postgres: 500, pglite: 300 } as const;
const PULL_GOAL_SECONDS = 8;

export async function measureSync(base: string, session: SignedIn, call: Call, report: (line: string) => void, database: keyof typeof DRAIN_GOAL): Promise<void> {
  const user = tabletUser(session);

  // Replay: 5,000 culls and un-culls queued offline on 100 plants, then the engine starts.
  const room = await call<{ RoomID: number }>('POST', '/create_room', { company_id: session.company_id }, { name: 'Sync bench', description: 'npm run bench' });
  const grid = await call<{ client_id: string; grid: { boxes: Array<{ X: number; Y: number }> } }>('POST', '/Create_grid', {}, { ncompany_id: session.company_id, nroom_id: room.RoomID, ngrid_name: 'Replay', nx: 10, ny: 10 });
  // Named as a tablet names them (its local documents' keys): by client id, resolved by the server.
  const boxIds = grid.grid.boxes.map((box) => boxClientId(grid.client_id, box.X, box.Y));
  const writer = await startTablet(base, user, { start: false });
  const queueStart = performance.now();
  for (let index = 0; index < QUEUED; index += 1) {
    await updateCullingStatus(writer.context, { gridBoxId: boxIds[index % boxIds.length] as string, userId: session.user_id, culled: index % 2 === 0 });
  }
  report(`recording ${QUEUED.toLocaleString('en')} changes offline: ${((performance.now() - queueStart) / 1000).toFixed(1)} s`);
  const replayStart = performance.now();
  await writer.engine.start();
  await writer.engine.settle();
  await until(async () => (await writer.outbox.count()) === 0, 600_000);
  const replaySeconds = (performance.now() - replayStart) / 1000;
  await writer.close();
  report(`replay of ${QUEUED.toLocaleString('en')} queued culls: ${replaySeconds.toFixed(1)} s, ${againstGoal(Math.round(QUEUED / replaySeconds), DRAIN_GOAL[database], 'mutations/s', 'at least')}`);

  // First full pull: 100,000 grid boxes (10 grids of 100 × 100) into a new tablet.
  const seedStart = performance.now();
  for (let index = 1; index <= PULLED.grids; index += 1) {
    await call('POST', '/Create_grid', {}, { ncompany_id: session.company_id, nroom_id: room.RoomID, ngrid_name: `Pull ${index}`, nx: PULLED.nx, ny: PULLED.ny });
  }
  report(`(seeded ${(PULLED.grids * PULLED.nx * PULLED.ny).toLocaleString('en')} boxes through the API in ${((performance.now() - seedStart) / 1000).toFixed(1)} s)`);
  const expected = PULLED.grids * PULLED.nx * PULLED.ny + boxIds.length;
  const reader = await startTablet(base, user, { start: false });
  // Done when the engine says the first pull is complete (the loading screen ends) and the last page is
  // stored: counting 100,000 documents every second instead would cost CPU and round up to the second.
  const firstPullDone = new Promise<void>((resolve) => {
    const unsubscribe = reader.engine.subscribe((status) => {
      if (status.initialPull !== null) return;
      resolve();
      queueMicrotask(() => unsubscribe());
    });
  });
  const pullStart = performance.now();
  await reader.engine.start();
  await firstPullDone;
  await until(async () => (await reader.database.grid_boxes.count().exec()) >= expected, 1_800_000, 50);
  const pullSeconds = (performance.now() - pullStart) / 1000;
  await reader.close();
  report(`first full pull of ${expected.toLocaleString('en')} grid boxes: ${againstGoal(Number(pullSeconds.toFixed(1)), PULL_GOAL_SECONDS, 's', 'at most')}, ${Math.round(expected / pullSeconds)} documents/s`);
}
