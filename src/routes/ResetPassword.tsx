import { createFileRoute } from '@tanstack/react-router';
import { ResetPassword } from '../features/session/ResetPassword';

/** Asking for a password reset link (spec part 1 §2). */
export const Route = createFileRoute('/ResetPassword')({ component: ResetPassword });
