import { createFileRoute } from '@tanstack/react-router';
import { Home } from '../features/shell/Home';

export const Route = createFileRoute('/')({ component: Home });
