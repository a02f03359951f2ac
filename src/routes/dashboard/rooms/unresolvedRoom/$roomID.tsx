import { createFileRoute } from '@tanstack/react-router';
import { PestPressureScreen } from '../../../../features/pest-pressure/PestPressureScreen';

export const Route = createFileRoute('/dashboard/rooms/unresolvedRoom/$roomID')({
  component: PestPressureRoute,
});

function PestPressureRoute() {
  const { roomID } = Route.useParams();
  // Keyed by the room: another room's map starts fresh (slider at now, no panel open).
  return <PestPressureScreen key={roomID} roomId={roomID} />;
}
