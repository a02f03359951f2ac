import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/plantsProblems/')({
  component: () => <Upcoming title="Plant problems" what="The plant problem catalogue, by symptom group and symptom." />,
});
