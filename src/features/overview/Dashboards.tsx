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
import { Trans, useTranslation } from 'react-i18next';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { useLocalDocument, useSignedInUser } from '../../app/hooks';
import { i18next } from '../../i18n/i18n';
import { useSyncStatus } from '../../sync/sync-store';
import { type CompanyDoc, userName, when } from '../rooms/model';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { TodaysWeather } from '../weather/TodaysWeather';
import { CommandBarSlot } from '../commands/CommandBarSlot';
import { CountCards } from './CountCards';
import { overviewTexts } from './texts';
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
  const { t } = useTranslation(overviewTexts);
  return (
    <Suspense fallback={<ChunkFallback>{t('loadingReports')}</ChunkFallback>}>
      <dashboardReports.Component />
    </Suspense>
  );
}

/** "No rooms yet", with the way to the rooms list. */
function NoRooms() {
  const { t } = useTranslation(overviewTexts);
  return (
    <p className="muted">
      <Trans t={t} i18nKey="noRooms" components={{ roomsLink: <Link to="/dashboard/rooms" /> }} />
    </p>
  );
}

function RoomsToScan({ counts, heading: named }: { counts: FarmCounts; heading?: string }) {
  const { t } = useTranslation(overviewTexts);
  const waiting = counts.byRoom.filter((room) => !room.scanned);
  const heading = named ?? t('toScan.heading');
  return (
    <section className="card dashboard-section" aria-labelledby="rooms-to-scan">
      <h2 id="rooms-to-scan">{t('toScan.count', { heading, count: waiting.length })}</h2>
      {counts.rooms === 0 ? (
        <NoRooms />
      ) : waiting.length === 0 ? (
        <p>{t('toScan.allScanned')}</p>
      ) : (
        <ul className="link-list" aria-label={heading}>
          {waiting.map((room) => (
            <li key={room.id}>
              <Link to="/dashboard/rooms/$roomID" params={{ roomID: room.id }}>
                <strong>{room.name}</strong>
                <span className="muted">
                  {t('toScan.grids', { count: room.grids })} · {t('toScan.plants', { count: room.plants })}
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
  const { t } = useTranslation(overviewTexts);
  const failed = useSyncStatus((status) => status.failed);
  if (failed.length === 0) return null;
  return (
    <p className="banner error" role="alert">
      {t('failedChanges', { count: failed.length })}
    </p>
  );
}

export function DashboardHome() {
  const { t } = useTranslation(overviewTexts);
  const { user, counts } = useDashboard();
  return (
    <Screen title={t('dashboard.title')} loading={!user || !counts}>
      {counts && (
        <Counted>
          <FailedChanges />
          {user && <CommandBarSlot user={user} />}
          <TodaysWeather />
          <CountCards counts={counts} />
          <div className="dashboard-columns">
            <RoomsToScan counts={counts} />
            <section className="card dashboard-section" aria-labelledby="batch-problems">
              <h2 id="batch-problems">{t('dashboard.batchProblems', { count: counts.batchesWithProblems.length })}</h2>
              {counts.batchesWithProblems.length === 0 ? (
                <p>{t('dashboard.noBatchProblems')}</p>
              ) : (
                <ul className="link-list" aria-label={t('dashboard.batchProblemsLabel')}>
                  {counts.batchesWithProblems.slice(0, 10).map((batch) => (
                    <li key={batch.id}>
                      {/* A batch made on this tablet has no page of its own until it syncs: the list holds it. */}
                      <Link {...(batch.waiting ? { to: '/dashboard/batches' } : { to: '/dashboard/batch-info/$batchId', params: { batchId: batch.id } })}>
                        <strong>{batch.batchNumber}</strong>
                        <span className="muted">{t('dashboard.openProblems', { count: batch.open })}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>
          <nav className="shortcuts" aria-label={t('dashboard.shortcuts')}>
            <Link className="button" to="/dashboard/overview">
              {t('dashboard.overview')}
            </Link>
            <Link className="button" to="/dashboard/quickview">
              {t('dashboard.quickView')}
            </Link>
            <Link className="button" to="/dashboard/rooms">
              {t('dashboard.rooms')}
            </Link>
            <Link className="button" to="/dashboard/batches">
              {t('dashboard.batches')}
            </Link>
          </nav>
        </Counted>
      )}
    </Screen>
  );
}

export function OverviewScreen() {
  const { t } = useTranslation(overviewTexts);
  const { user, counts, company } = useDashboard();
  return (
    <Screen title={t('overview.title')} loading={!user || !counts}>
      {counts && (
        <Counted>
          <FailedChanges />
          <CountCards counts={counts} />
          <ChosenReports />
          <section className="card dashboard-section" aria-labelledby="rooms-table">
            <h2 id="rooms-table">{t('overview.rooms')}</h2>
            {counts.byRoom.length === 0 ? (
              <NoRooms />
            ) : (
              <div className="table-scroll">
                <table className="counts-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('overview.room')}</th>
                      <th scope="col">{t('overview.grids')}</th>
                      <th scope="col">{t('overview.plants')}</th>
                      <th scope="col">{t('overview.culled')}</th>
                      <th scope="col">{t('overview.scanned')}</th>
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

/** A room's Scanned cell: "No", or when and by whom ("Yes" when the time is not known). */
function scanned(room: RoomCounts, company: CompanyDoc | null): string {
  const t = i18next.getFixedT(null, overviewTexts, 'overview');
  if (!room.scanned) return t('no');
  const by = userName(company, room.lastScannedBy);
  const at = when(room.scannedAt) || t('yes');
  return by ? t('scannedBy', { scanned: at, by }) : at;
}

export function QuickviewScreen() {
  const { t } = useTranslation(overviewTexts);
  const { user, counts } = useDashboard();
  return (
    <Screen title={t('quickView.title')} loading={!user || !counts}>
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
