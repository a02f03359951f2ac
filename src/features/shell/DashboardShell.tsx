/** The protected area's frame: navigation, the sync indicator and the user menu (switch user, sign out), around the screen. */
import { Link, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ADMIN_ROLES } from '../../app/guards';
import { session, startSync } from '../../app/services';
import { UserMenu } from '../kiosk/UserMenu';
import { SyncIndicator } from './SyncIndicator';

const NAVIGATION = [
  { to: '/dashboard/quickview', label: 'Quick view' },
  { to: '/dashboard/rooms', label: 'Rooms' },
  { to: '/dashboard/batches', label: 'Batches' },
  { to: '/dashboard/trays', label: 'Trays' },
  { to: '/dashboard/treatmentProduct', label: 'Treatments' },
  { to: '/dashboard/plantsProblems', label: 'Plant problems' },
  { to: '/dashboard/plantMoves', label: 'Plant moves' },
  { to: '/dashboard/observations', label: 'Observations' },
  { to: '/dashboard/scanNow', label: 'Scan' },
  { to: '/dashboard/tasks', label: 'Tasks' },
  { to: '/dashboard/reports', label: 'Reports' },
  { to: '/dashboard/formbuilder', label: 'Form builder', adminOnly: true },
  { to: '/dashboard/gridTemplates', label: 'Grid templates' },
  { to: '/dashboard/audittrail', label: 'Audit trail' },
  { to: '/dashboard/company', label: 'Company' },
  { to: '/dashboard/profile', label: 'Profile' },
  { to: '/dashboard/settings', label: 'Settings' },
] as const satisfies ReadonlyArray<{ to: string; label: string; adminOnly?: boolean }>;


export function DashboardShell() {
  useEffect(() => {
    void startSync();
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
        {/* Admin screens (guards.ts) are offered to Admins only. */}
        {NAVIGATION.filter((item) => !('adminOnly' in item) || ADMIN_ROLES.some((role) => role === session.role())).map((item) => (
          <Link key={item.to} to={item.to} activeProps={{ className: 'active' }}>
            {item.label}
          </Link>
        ))}
      </nav>
      <main className="content">
        <Outlet />
      </main>
    </div>
  );
}
