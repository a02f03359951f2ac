import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/automatedcameras')({
  component: () => <Upcoming title="Automated cameras" what="Cameras that photograph plants on a schedule." />,
});
