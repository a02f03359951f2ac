import { createFileRoute } from '@tanstack/react-router';
import { ProfileScreen } from '../../features/profile/ProfileScreen';

/** The signed-in user's threshold and location (spec part 1 §2, §3). */
export const Route = createFileRoute('/dashboard/profile')({ component: ProfileScreen });
