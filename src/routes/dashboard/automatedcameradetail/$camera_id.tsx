import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/automatedcameradetail/$camera_id')({
  component: () => <Upcoming title="Camera" what="One automated camera and its captures." />,
});
