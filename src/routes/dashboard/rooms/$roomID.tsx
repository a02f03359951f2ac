import { createFileRoute } from '@tanstack/react-router';
import { preloadRoom } from '../../../features/rooms/preload';
import { RoomScreen } from '../../../features/rooms/RoomScreen';

export const Route = createFileRoute('/dashboard/rooms/$roomID')({
  // Warms the room's local queries (preload.ts) when its link is in view or touched; never waited for.
  // Not on the way in: the screen's own queries are the same ones, and an extra read would only compete.
  loader: ({ params, preload }) => {
    if (preload) void preloadRoom(params.roomID);
  },
  component: RoomRoute,
});

function RoomRoute() {
  const { roomID } = Route.useParams();
  // Keyed by the room: another room's screen starts fresh (no panel or form left open).
  return <RoomScreen key={roomID} roomId={roomID} />;
}
