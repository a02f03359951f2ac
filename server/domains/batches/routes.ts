/** Routes of the batches domain (issue 3: the grow model). */
import type { App } from '../../app';

export async function batchRoutes(_app: App) {}
