import { createFileRoute } from '@tanstack/react-router';
import { SCAN_TYPES } from '../../../common/messages/scans';
import type { ScanType } from '../../../common/schemas/scans';
import { ScanNowScreen, type ScanNowSearch } from '../../features/scans/ScanNowScreen';
import { textParameter } from '../../features/session/search';

const isScanType = (value: unknown): value is ScanType => typeof value === 'string' && (SCAN_TYPES as readonly string[]).includes(value);

export const Route = createFileRoute('/dashboard/scanNow')({
  // A room's or grid's screen may open a scan of itself: ?room=…&grid=…&type=sticky_trap.
  validateSearch: (search: Record<string, unknown>): ScanNowSearch => ({
    ...textParameter(search, 'room'),
    ...textParameter(search, 'grid'),
    ...(isScanType(search.type) ? { type: search.type } : {}),
  }),
  component: ScanNowRoute,
});

function ScanNowRoute() {
  return <ScanNowScreen search={Route.useSearch()} />;
}
