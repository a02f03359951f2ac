import { createFileRoute } from '@tanstack/react-router';
import { PlantProblemScreen } from '../../../features/plant-problems/PlantProblemScreen';

/** One plant problem of the catalogue, by its id or slug (issue 14). */
export const Route = createFileRoute('/dashboard/plantsProblems/$problemID')({
  component: PlantProblemRoute,
});

function PlantProblemRoute() {
  const { problemID } = Route.useParams();
  return <PlantProblemScreen problemId={problemID} />;
}
