import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/gridTemplates')({
  component: () => <Upcoming title="Grid templates" what="Grid and sub-grid layouts to lay out a grid or divide a box from." />,
});
