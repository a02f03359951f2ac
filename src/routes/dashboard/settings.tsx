import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '../../features/settings/SettingsScreen';

/** Company settings (spec part 1 §2): everyone reads them, Admins change them. */
export const Route = createFileRoute('/dashboard/settings')({ component: SettingsScreen });
