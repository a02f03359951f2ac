import { createFileRoute } from '@tanstack/react-router';
import { Unauthorized } from '../features/shell/Unauthorized';

export const Route = createFileRoute('/unauthorized')({ component: Unauthorized });
