import { createFileRoute } from '@tanstack/react-router';
import { landOnPinnedRoom } from '../../app/kiosk-pin';
import { QuickviewScreen } from '../../features/overview/Dashboards';

/** Where Regular users land (spec part 1 §2); on a kiosk pinned to a room, that room (issue 19). */
export const Route = createFileRoute('/dashboard/quickview')({
  beforeLoad: landOnPinnedRoom,
  component: QuickviewScreen,
});
