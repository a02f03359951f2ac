import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/plantMoves')({
  component: () => <Upcoming title="Plant moves" what="Move plants between positions, and the company's movement history." />,
});
