/**
 * The dashboards (spec part 1 §2: overview, quickview, and /dashboard where Admins land), from the
 * local store so they answer at once, offline too:
 * - Dashboard: the command bar (commands/CommandBar.tsx), the counts, what needs attention (rooms not
 *   scanned, batches with open problems) and shortcuts;
 * - Overview: the counts, the dashboard's reports and every room's figures;
 * - Quick view (where growers land): the counts, the dashboard's reports and the rooms still to scan.
 * The dashboard and the quick view show today's weather above their counts (weather/TodaysWeather.tsx).
 * While a new tablet's first pull runs, each says so with its progress instead of counting a
 * company that has not arrived yet (zeros and "No rooms yet" would be wrong).
 */
import { Link } from '@tanstack/react-router';
import { type ReactNode, Suspense } from 'react';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { useLocalDocument, useSignedInUser } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { TodaysWeather } from '../weather/TodaysWeather';
import { CommandBarSlot } from '../commands/CommandBarSlot';
import { CountCards } from './CountCards';
import { type FarmCounts, type RoomCounts, useFarmCounts } from './useFarmCounts';
import './overview.css';

function useDashboard() {
  const user = useSignedInUser();
  const counts = useFarmCounts(user?.companyId ?? null);
  const company = useLocalDocument<CompanyDoc>('company', user ? String(user.companyId) : undefined).document;
  return { user, counts, company };
}

/** The dashboard's figures, or the first pull's progress while the company's data is still arriving. */
function Counted({ children }: { children: ReactNode }) {
  const pulling = useInitialPull();
  return pulling ? (
    <>
      <FailedChanges />
      <InitialPull progress={pulling} />
    </>
  ) : (
    children
  );
}

/** echarts and the reports' code load once the counts have drawn, and not at all on the other screens. */
const dashboardReports = lazyChunk(async () => (await import('../reports/DashboardReports')).default);

/** The four reports an Admin chose for the dashboard (spec part 2 §3), under the counts. */
function ChosenReports() {
  return (
    <Suspense fallback={<ChunkFallback>Loading the dashboard’s reports…</ChunkFallback>}>
      <dashboardReports.Component />
    </Suspense>
  );
}

function RoomsToScan({ counts, heading = 'Rooms not scanned' }: { counts: FarmCounts; heading?: string }) {
  const waiting = counts.byRoom.filter((room) => !room.scanned);
  return (
    <section className="card dashboard-section" aria-labelledby="rooms-to-scan">
      <h2 id="rooms-to-scan">
        {heading} ({waiting.length})
      </h2>
      {counts.rooms === 0 ? (
        <p className="muted">
          No rooms yet. <Link to="/dashboard/rooms">Create the first room</Link>.
        </p>
      ) : waiting.length === 0 ? (
        <p>Every room is scanned.</p>
      ) : (
        <ul className="link-list" aria-label={heading}>
          {waiting.map((room) => (
            <li key={room.id}>
              <Link to="/dashboard/rooms/$roomID" params={{ roomID: room.id }}>
                <strong>{room.name}</strong>
                <span className="muted">
                  {room.grids} grid{room.grids === 1 ? '' : 's'} · {room.plants} plants
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FailedChanges() {
  const failed = useSyncStatus((status) => status.failed);
  if (failed.length === 0) return null;
  return (
    <p className="banner error" role="alert">
      {failed.length} change{failed.length === 1 ? '' : 's'} could not be saved on the server. Open the sync status at the top to retry or discard {failed.length === 1 ? 'it' : 'them'}.
    </p>
  );
}

export function DashboardHome() {
  const { user, counts } = useDashboard();
  return (
    <Screen title="Dashboard" loading={!user || !counts}>
      {counts && (
        <Counted>
          <FailedChanges />
          {user && <CommandBarSlot user={user} />}
          <TodaysWeather />
          <CountCards counts={counts} />
          <div className="dashboard-columns">
            <RoomsToScan counts={counts} />
            <section className="card dashboard-section" aria-labelledby="batch-problems">
              <h2 id="batch-problems">Batches with open problems ({counts.batchesWithProblems.length})</h2>
              {counts.batchesWithProblems.length === 0 ? (
                <p>No open batch problems.</p>
              ) : (
                <ul className="link-list" aria-label="Batches with open problems">
                  {counts.batchesWithProblems.slice(0, 10).map((batch) => (
                    <li key={batch.id}>
                      {/* A batch made on this tablet has no page of its own until it syncs: the list holds it. */}
                      <Link {...(batch.waiting ? { to: '/dashboard/batches' } : { to: '/dashboard/batch-info/$batchId', params: { batchId: batch.id } })}>
                        <strong>{batch.batchNumber}</strong>
                        <span className="muted">
                          {batch.open} open problem{batch.open === 1 ? '' : 's'}
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
          <nav className="shortcuts" aria-label="Shortcuts">
            <Link className="button" to="/dashboard/overview">
              Overview
            </Link>
            <Link className="button" to="/dashboard/quickview">
              Quick view
            </Link>
            <Link className="button" to="/dashboard/rooms">
              Rooms
            </Link>
            <Link className="button" to="/dashboard/batches">
              Batches
            </Link>
          </nav>
        </Counted>
      )}
    </Screen>
  );
}

export function OverviewScreen() {
  const { user, counts, company } = useDashboard();
  return (
    <Screen title="Overview" loading={!user || !counts}>
      {counts && (
        <Counted>
          <FailedChanges />
          <CountCards counts={counts} />
          <ChosenReports />
          <section className="card dashboard-section" aria-labelledby="rooms-table">
            <h2 id="rooms-table">Rooms</h2>
            {counts.byRoom.length === 0 ? (
              <p className="muted">
                No rooms yet. <Link to="/dashboard/rooms">Create the first room</Link>.
              </p>
            ) : (
              <div className="table-scroll">
                <table className="counts-table">
                  <thead>
                    <tr>
                      <th scope="col">Room</th>
                      <th scope="col">Grids</th>
                      <th scope="col">Plants</th>
                      <th scope="col">Culled</th>
                      <th scope="col">Scanned</th>
                    </tr>
                  </thead>
                  <tbody>
                    {counts.byRoom.map((room) => (
                      <tr key={room.id}>
                        <th scope="row">
                          <Link to="/dashboard/rooms/$roomID" params={{ roomID: room.id }}>
                            {room.name}
                          </Link>
                        </th>
                        <td>{room.grids}</td>
                        <td>{room.plants}</td>
                        <td>{room.culled}</td>
                        <td>{scanned(room, company)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </Counted>
      )}
    </Screen>
  );
}

function scanned(room: RoomCounts, company: CompanyDoc | null): string {
  if (!room.scanned) return 'No';
  const by = userName(company, room.lastScannedBy);
  return [when(room.scannedAt) || 'Yes', by ? `by ${by}` : ''].filter(Boolean).join(' ');
}

export function QuickviewScreen() {
  const { user, counts } = useDashboard();
  return (
    <Screen title="Quick view" loading={!user || !counts}>
      {counts && (
        <Counted>
          <FailedChanges />
          <TodaysWeather />
          <CountCards counts={counts} />
          <ChosenReports />
          <RoomsToScan counts={counts} />
        </Counted>
      )}
    </Screen>
  );
}
