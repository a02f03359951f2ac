import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/camera')({
  component: () => <Upcoming standalone title="Camera" what="Take photos of plants for disease scans, from the tablet camera." />,
});
