/** Routes of the subgrids domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function subgridRoutes(_app: App) {}
