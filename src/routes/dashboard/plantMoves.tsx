import { createFileRoute } from '@tanstack/react-router';
import { PlantMovesScreen } from '../../features/plant-moves/PlantMovesScreen';

/** Moving plants between positions, and the company's movement history (spec part 2 §3, §5, §7, §9). */
export const Route = createFileRoute('/dashboard/plantMoves')({ component: PlantMovesScreen });
