/** Routes of the rooms domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function roomRoutes(_app: App) {}
