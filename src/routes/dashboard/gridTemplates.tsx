import { createFileRoute } from '@tanstack/react-router';
import { GridTemplatesScreen } from '../../features/grid-templates/GridTemplatesScreen';

/** Grid and SubGrid templates: lay out a grid in a room, or divide a box into positions (spec part 2 §3, §5, §7, §9). */
export const Route = createFileRoute('/dashboard/gridTemplates')({ component: GridTemplatesScreen });
