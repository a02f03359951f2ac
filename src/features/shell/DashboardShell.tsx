/**
 * The protected area's frame: navigation, the sync indicator and the user menu (switch user, sign out),
 * around the screen. An outside consultant (issue 18) also gets the read-only bar with their company
 * switch, and no screen whose purpose is changing data.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_ROLES } from '../../app/guards';
import { useSignedInUser } from '../../app/hooks';
import { usePinnedRoom } from '../../app/kiosk-pin';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { apiContext, session, startSync } from '../../app/services';
import { emptyingPending, holdStoreFor } from '../../db/store-company';
import { useCompanyLanguage } from '../../i18n/language';
import { useCompany } from '../company/useCompany';
import { UserMenu } from '../kiosk/UserMenu';
import { InstallOffer } from './InstallOffer';
import { SyncIndicator } from './SyncIndicator';
import { UpdateOffer } from './UpdateOffer';
import { shellTexts } from './texts';

const consultantBar = lazyChunk(async () => (await import('../consultants/ConsultantBar')).ConsultantBar);

const NAVIGATION = [
  { to: '/dashboard/quickview', label: 'navigation.quickView' },
  { to: '/dashboard/rooms', label: 'navigation.rooms' },
  { to: '/dashboard/batches', label: 'navigation.batches' },
  { to: '/dashboard/trays', label: 'navigation.trays' },
  { to: '/dashboard/treatmentProduct', label: 'navigation.treatments' },
  { to: '/dashboard/plantsProblems', label: 'navigation.plantProblems' },
  { to: '/dashboard/plantMoves', label: 'navigation.plantMoves' },
  { to: '/dashboard/observations', label: 'navigation.observations' },
  { to: '/dashboard/scanNow', label: 'navigation.scan', writes: true },
  { to: '/dashboard/tasks', label: 'navigation.tasks' },
  { to: '/dashboard/reports', label: 'navigation.reports' },
  { to: '/dashboard/formbuilder', label: 'navigation.formBuilder', adminOnly: true },
  { to: '/dashboard/gridTemplates', label: 'navigation.gridTemplates' },
  { to: '/dashboard/audittrail', label: 'navigation.auditTrail' },
  { to: '/dashboard/company', label: 'navigation.company' },
  { to: '/dashboard/profile', label: 'navigation.profile' },
  { to: '/dashboard/settings', label: 'navigation.settings' },
  { to: '/dashboard/consultants', label: 'navigation.consultants', adminOnly: true },
] as const satisfies ReadonlyArray<{ to: string; label: `navigation.${string}`; adminOnly?: boolean; writes?: boolean }>;

/** Whether the signed-in role is offered a screen: Admin screens (guards.ts) to Admins; screens that only change data not to consultants, who read. */
function offered(item: (typeof NAVIGATION)[number], role: ReturnType<typeof session.role>): boolean {
  if ('adminOnly' in item) return ADMIN_ROLES.some((admin) => admin === role);
  return !('writes' in item) || role !== 'Consultant';
}


export function DashboardShell() {
  const user = useSignedInUser();
  const { t } = useTranslation(shellTexts);
  // The company's language applies to everyone on its tablets, unless this tablet chose its own (src/i18n).
  const company = useCompany(user?.companyId);
  useCompanyLanguage(company.document ? (company.document.settings?.language ?? 'en') : undefined);
  const pinned = usePinnedRoom();
  useEffect(() => {
    void (async () => {
      // The store holds one company's data at a time (db/store-company.ts): opened in this page before
      // a sign-in to another company, it is emptied by a page load, before anything syncs into it.
      const current = await session.get();
      if (current) holdStoreFor(current);
      await apiContext();
      if (emptyingPending()) return window.location.reload();
      await startSync();
    })();
  }, []);
  return (
    <div className="shell">
      <header className="topbar">
        <Link to={session.role() === 'Admin' ? '/dashboard' : '/dashboard/quickview'} className="brand">
          {t('brand')}
        </Link>
        {pinned && (
          <Link className="chip pinned-room" to="/dashboard/rooms/$roomID" params={{ roomID: pinned.roomId }}>
            {t('pinned', { room: pinned.roomName })}
          </Link>
        )}
        <InstallOffer />
        <SyncIndicator />
        <UserMenu />
      </header>
      <nav className="sidenav" aria-label={t('navigation.label')}>
        {NAVIGATION.filter((item) => offered(item, session.role())).map((item) => (
          <Link key={item.to} to={item.to} activeProps={{ className: 'active' }}>
            {t(item.label)}
          </Link>
        ))}
      </nav>
      <main className="content">
        <UpdateOffer />
        {user?.role === 'Consultant' && (
          <Suspense fallback={<ChunkFallback>{t('consultantReadOnly')}</ChunkFallback>}>
            <consultantBar.Component user={user} />
          </Suspense>
        )}
        <Outlet />
      </main>
    </div>
  );
}
