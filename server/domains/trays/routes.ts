/** Routes of the trays domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function trayRoutes(_app: App) {}
