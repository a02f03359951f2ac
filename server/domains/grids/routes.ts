/** Routes of the grids domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function gridRoutes(_app: App) {}
