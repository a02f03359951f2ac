import { createFileRoute } from '@tanstack/react-router';
import { SignIn } from '../features/session/SignIn';

export const Route = createFileRoute('/signIn')({ component: SignIn });
