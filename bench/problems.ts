/**
 * The pest-pressure room of `npm run bench` (issue 14): a room of 2,000 boxes (two grids of 40 × 25)
 * with 20,000 problems recorded over the weeks before, most of them resolved since, as a farm's
 * scouting leaves them. Seeded through the real API as tablets would: problems arrive in pushes of
 * 200 entries, each with the time it was seen (`actedAt`), and each week's open problems are resolved
 * but for the last two weeks'.
 *
 * The server keeps an act's time at most 30 days back (README "Acted-at"): problems seen earlier are
 * recorded 30 days back. The room's answer reads open problems only, so their spread in time does
 * not weigh on it.
 */
import { randomUUID } from 'node:crypto';
import type { Call } from './sync';

export const PRESSURE_ROOM = { nx: 40, ny: 25, grids: 2, problems: 20_000, weeks: 12, openWeeks: 2 };

/** Problems growers record most, in the catalogue's names. */
const TYPES = ['Two-spotted spider mite', 'Western flower thrips', 'Powdery mildew', 'Fungus gnats', 'Botrytis (grey mould)', 'Green peach aphid', 'Broad mite', 'Root aphids'];
const PUSH_SIZE = 200;
const WEEK_MS = 7 * 86_400_000;

interface PushAnswer {
  results: Array<{ id: string; status: number; body: unknown }>;
}

/** Seeds the pressure room; answers its id once every problem is in and the old ones are resolved. */
export async function seedPressureRoom(call: Call, session: { company_id: number; user_id: number }): Promise<number> {
  const room = await call<{ RoomID: number }>('POST', '/create_room', { company_id: session.company_id }, { name: 'Pest pressure bench', description: 'Seeded by npm run bench' });
  const boxIds: number[] = [];
  for (let index = 1; index <= PRESSURE_ROOM.grids; index += 1) {
    const grid = await call<{ grid: { boxes: Array<{ id: number }> } }>('POST', '/Create_grid', {}, {
      ncompany_id: session.company_id,
      nroom_id: room.RoomID,
      ngrid_name: `Bay ${index}`,
      nx: PRESSURE_ROOM.nx,
      ny: PRESSURE_ROOM.ny,
    });
    boxIds.push(...grid.grid.boxes.map((box) => box.id));
  }
  const perWeek = Math.ceil(PRESSURE_ROOM.problems / PRESSURE_ROOM.weeks);
  const now = Date.now();
  let made = 0;
  for (let week = PRESSURE_ROOM.weeks; week >= 1 && made < PRESSURE_ROOM.problems; week -= 1) {
    const entries = [];
    for (let index = 0; index < perWeek && made < PRESSURE_ROOM.problems; index += 1, made += 1) {
      // A hot spot per problem type that drifts week by week, as pressure moves through a room.
      const type = made % TYPES.length;
      const box = boxIds[(type * 211 + week * 37 + ((made * 7919) % 97)) % boxIds.length] as number;
      entries.push({
        id: randomUUID(),
        method: 'POST',
        path: '/create_gridbox_problem',
        body: { kind: 'json', data: { GridBoxID: box, problem_type: TYPES[type], severity: 1 + (made % 5), user_id: session.user_id } },
        actedAt: new Date(now - week * WEEK_MS + (index / perWeek) * WEEK_MS).toISOString(),
      });
    }
    for (let start = 0; start < entries.length; start += PUSH_SIZE) {
      const pushed = await call<PushAnswer>('POST', '/sync/push', {}, { entries: entries.slice(start, start + PUSH_SIZE) });
      const refused = pushed.results.find((result) => result.status !== 200);
      if (refused || pushed.results.length !== Math.min(PUSH_SIZE, entries.length - start)) throw new Error(`Seeding problems: ${JSON.stringify(refused ?? pushed.results.length)}`);
    }
    if (week > PRESSURE_ROOM.openWeeks) await call('POST', '/update_unresolved_problems_for_room', {}, { roomID: room.RoomID, action: 'resolve', userID: session.user_id });
  }
  return room.RoomID;
}
