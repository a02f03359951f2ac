import { createFileRoute } from '@tanstack/react-router';
import { RoomsScreen } from '../../../features/rooms/RoomsScreen';

export const Route = createFileRoute('/dashboard/rooms/')({
  component: RoomsScreen,
});
