import { createFileRoute } from '@tanstack/react-router';
import { Upcoming } from '../../features/shell/Upcoming';

export const Route = createFileRoute('/dashboard/scanNow')({
  component: () => <Upcoming title="Scan now" what="Scan plants for disease with the company’s AI model." />,
});
