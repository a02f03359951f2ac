/** Routes of the grid-templates domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function gridTemplateRoutes(_app: App) {}
