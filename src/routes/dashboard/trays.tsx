import { createFileRoute } from '@tanstack/react-router';
import { TraysScreen } from '../../features/trays/TraysScreen';

/** Trays and tray templates (spec part 2 §3, §7). */
export const Route = createFileRoute('/dashboard/trays')({ component: TraysScreen });
