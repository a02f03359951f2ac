import { createFileRoute } from '@tanstack/react-router';
import { SwitchUserScreen } from '../features/kiosk/SwitchUserScreen';

/** The shared kiosk's switch screen: open signed out too (users parked on the tablet switch in by PIN). */
export const Route = createFileRoute('/switchUser')({ component: SwitchUserScreen });
