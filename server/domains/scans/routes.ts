/** Routes of the scans domain (issue 3: scan state of rooms and grids, scans, whiteboard and grid images). */
import type { App } from '../../app';

export async function scanRoutes(_app: App) {}
