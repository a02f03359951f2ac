import { createFileRoute } from '@tanstack/react-router';
import { RoomScreen } from '../../../features/rooms/RoomScreen';

export const Route = createFileRoute('/dashboard/rooms/$roomID')({
  component: RoomRoute,
});

function RoomRoute() {
  const { roomID } = Route.useParams();
  // Keyed by the room: another room's screen starts fresh (no panel or form left open).
  return <RoomScreen key={roomID} roomId={roomID} />;
}
