/**
 * The page's side of sending queued changes while no page of the app is open (issue 19; the service
 * worker's side is workers/background-replay.ts, its rules sync/background-replay.ts).
 *
 * - Background Sync (Chromium browsers): whenever changes wait and a send failed for want of a
 *   connection, the page registers the tag BACKGROUND_SYNC_TAG; the browser fires the service worker's
 *   `sync` event once the connection is back, open page or not. With a page open, its sync worker
 *   sends and the service worker does nothing.
 * - Periodic sync (Chromium, for an installed app the browser grants it to): registered at page open
 *   when the permission is granted, so changes left by a failed send also go out later.
 * - Neither (Safari, Firefox): nothing can send once the app is closed. Closing a page with changes
 *   waiting asks the browser's own "leave the page?" dialog (not the app's own ways out: leaving.ts),
 *   and `backgroundSendingSupported` lets the sync panel and the sign-out path say the changes wait on
 *   this tablet until the app is opened again.
 */
import { BACKGROUND_SYNC_TAG } from '../../sync/background-replay';
import { useSyncStatus } from '../sync/sync-store';
import { leavingOnPurpose } from './leaving';

// Not in TypeScript's DOM types yet: the little of them used here.
interface SyncManager {
  register(tag: string): Promise<void>;
}
interface PeriodicSyncManager {
  register(tag: string, options: { minInterval: number }): Promise<void>;
}
// The global, present where the browser has Background Sync.
declare const SyncManager: unknown;
type SyncingRegistration = ServiceWorkerRegistration & { sync?: SyncManager; periodicSync?: PeriodicSyncManager };

/** The shortest interval asked of periodic sync; the browser decides the real one (often hours). */
const PERIODIC_SYNC_MIN_INTERVAL_MS = 15 * 60_000;

let periodicSyncGranted = false;
let started = false;

/**
 * Whether this browser can send queued changes while the app is closed (Background Sync, or periodic
 * sync granted to this app). False: changes wait on this tablet until the app is opened again.
 */
export function backgroundSendingSupported(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && (typeof SyncManager !== 'undefined' || periodicSyncGranted);
}

async function registration(): Promise<SyncingRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.ready) as SyncingRegistration;
}

async function registerBackgroundSync(): Promise<void> {
  try {
    await (await registration())?.sync?.register(BACKGROUND_SYNC_TAG);
  } catch (error) {
    console.warn('Background Sync could not be registered; queued changes go when the app is open', error);
  }
}

async function registerPeriodicSync(): Promise<void> {
  try {
    // 'periodic-background-sync' is not in TypeScript's PermissionName; browsers without it reject.
    const permission = await navigator.permissions.query({ name: 'periodic-background-sync' as PermissionName });
    if (permission.state !== 'granted') return;
    periodicSyncGranted = true;
    await (await registration())?.periodicSync?.register(BACKGROUND_SYNC_TAG, { minInterval: PERIODIC_SYNC_MIN_INTERVAL_MS });
  } catch {
    // No periodic sync here: Background Sync, or the warning on closing, covers it.
  }
}

/** Registers the background sends as the outbox needs them; once per page (startSync runs after every sign-in). */
export function startBackgroundSending(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  void registerPeriodicSync();
  let waitedForNetwork = false;
  const watch = (status: { pending: number; online: boolean }) => {
    // Registered as the wait begins: a tag fires once, and is registered again at the next wait.
    const waitsForNetwork = status.pending > 0 && !status.online;
    if (waitsForNetwork && !waitedForNetwork) void registerBackgroundSync();
    waitedForNetwork = waitsForNetwork;
  };
  watch(useSyncStatus.getState());
  useSyncStatus.subscribe(watch);
  window.addEventListener('beforeunload', (event) => {
    if (backgroundSendingSupported() || leavingOnPurpose() || useSyncStatus.getState().pending === 0) return;
    // The browser's own dialog (its text is the browser's): the changes cannot go once the app is closed.
    event.preventDefault();
    // Browsers from before preventDefault asked it (Safari before 17, older Firefox) ask by this.
    event.returnValue = true;
  });
}
