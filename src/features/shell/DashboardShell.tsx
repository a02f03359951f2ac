/**
 * The protected area's frame: navigation, the sync indicator and the user menu (switch user, sign out),
 * around the screen. An outside consultant (issue 18) also gets the read-only bar with their company
 * switch, and no screen whose purpose is changing data.
 */
import { Link, Outlet } from '@tanstack/react-router';
import { Suspense, useEffect } from 'react';
import { ADMIN_ROLES } from '../../app/guards';
import { useSignedInUser } from '../../app/hooks';
import { ChunkFallback, lazyChunk } from '../../app/lazy-chunk';
import { apiContext, session, startSync } from '../../app/services';
import { emptyingPending, holdStoreFor } from '../../db/store-company';
import { UserMenu } from '../kiosk/UserMenu';
import { SyncIndicator } from './SyncIndicator';

const consultantBar = lazyChunk(async () => (await import('../consultants/ConsultantBar')).ConsultantBar);

const NAVIGATION = [
  { to: '/dashboard/quickview', label: 'Quick view' },
  { to: '/dashboard/rooms', label: 'Rooms' },
  { to: '/dashboard/batches', label: 'Batches' },
  { to: '/dashboard/trays', label: 'Trays' },
  { to: '/dashboard/treatmentProduct', label: 'Treatments' },
  { to: '/dashboard/plantsProblems', label: 'Plant problems' },
  { to: '/dashboard/plantMoves', label: 'Plant moves' },
  { to: '/dashboard/observations', label: 'Observations' },
  { to: '/dashboard/scanNow', label: 'Scan', writes: true },
  { to: '/dashboard/tasks', label: 'Tasks' },
  { to: '/dashboard/reports', label: 'Reports' },
  { to: '/dashboard/formbuilder', label: 'Form builder', adminOnly: true },
  { to: '/dashboard/gridTemplates', label: 'Grid templates' },
  { to: '/dashboard/audittrail', label: 'Audit trail' },
  { to: '/dashboard/company', label: 'Company' },
  { to: '/dashboard/profile', label: 'Profile' },
  { to: '/dashboard/settings', label: 'Settings' },
  { to: '/dashboard/consultants', label: 'Consultants', adminOnly: true },
] as const satisfies ReadonlyArray<{ to: string; label: string; adminOnly?: boolean; writes?: boolean }>;

/** Whether the signed-in role is offered a screen: Admin screens (guards.ts) to Admins; screens that only change data not to consultants, who read. */
function offered(item: (typeof NAVIGATION)[number], role: ReturnType<typeof session.role>): boolean {
  if ('adminOnly' in item) return ADMIN_ROLES.some((admin) => admin === role);
  return !('writes' in item) || role !== 'Consultant';
}


export function DashboardShell() {
  const user = useSignedInUser();
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
          Grow Room
        </Link>
        <SyncIndicator />
        <UserMenu />
      </header>
      <nav className="sidenav" aria-label="Main">
        {NAVIGATION.filter((item) => offered(item, session.role())).map((item) => (
          <Link key={item.to} to={item.to} activeProps={{ className: 'active' }}>
            {item.label}
          </Link>
        ))}
      </nav>
      <main className="content">
        {user?.role === 'Consultant' && (
          <Suspense fallback={<ChunkFallback>Read-only: consultant access.</ChunkFallback>}>
            <consultantBar.Component user={user} />
          </Suspense>
        )}
        <Outlet />
      </main>
    </div>
  );
}
