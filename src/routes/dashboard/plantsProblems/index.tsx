import { createFileRoute } from '@tanstack/react-router';
import { PlantProblemsScreen } from '../../../features/plant-problems/PlantProblemsScreen';

/** The plant problem catalogue: search and filters (issue 14, spec part 2 §7 "Plant problems"). */
export const Route = createFileRoute('/dashboard/plantsProblems/')({ component: PlantProblemsScreen });
