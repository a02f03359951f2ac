import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../features/shell/Upcoming';

export const Route = createFileRoute('/reporting')({
  component: () => <Upcoming standalone title="Reporting" what="Problem trends and saved reports, for managers." />,
});
