import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/videoCapture')({
  component: () => <Upcoming title="Video capture" what="Record video of a room." />,
});
