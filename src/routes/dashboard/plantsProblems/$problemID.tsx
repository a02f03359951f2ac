import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/plantsProblems/$problemID')({
  component: () => <Upcoming title="Plant problem" what="One problem with its symptoms and solutions." />,
});
