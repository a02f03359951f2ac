import { createFileRoute } from '@tanstack/react-router';
import { requireSession } from '../app/guards';
import { apiContext } from '../app/services';
import { DashboardShell } from '../features/shell/DashboardShell';

/** The protected area (spec part 1 §2, §6): Admin, SuperAdmin and Regular, signed in. */
export const Route = createFileRoute('/dashboard')({
  beforeLoad: () => {
    requireSession();
    // Every screen here reads the local database: it opens while the screen's code loads, not after.
    void apiContext();
  },
  component: DashboardShell,
});
