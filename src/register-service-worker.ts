/**
 * The service worker (generated into dist/sw.js by workbox-build): registered after page load (spec
 * part 2 §2), and how a new version of the app reaches a tablet (issue 19).
 *
 * A new version installs beside the running one and waits: the tablet keeps the version it runs, whose
 * files the old worker still serves (so a screen opened later still loads), until the grower chooses to
 * reload from the offer (`UpdateOffer`). Then the waiting worker takes over and the page reloads.
 * Nothing queued is lost on the way: every change is in the outbox (IndexedDB) from the moment it is
 * recorded, the outbox outlives the page, and the new version's sync worker reads the old version's
 * entries (sync/outbox-upgrade.ts) and sends each once (its Idempotency-Key is kept with it).
 *
 * A kiosk left open for days looks for a new version when it comes back to the foreground, when the
 * connection returns, and every half hour.
 */
import { useSyncExternalStore } from 'react';
import { leaveOnPurpose } from './app/leaving';

const UPDATE_CHECK_INTERVAL_MS = 30 * 60_000;

let registration: ServiceWorkerRegistration | null = null;
let updateWaiting = false;
const updateListeners = new Set<() => void>();

function noteWaiting(found: ServiceWorkerRegistration) {
  // A worker waiting while another controls the page is a new version; the first install claims the page.
  const waiting = found.waiting !== null && navigator.serviceWorker.controller !== null;
  if (waiting === updateWaiting) return;
  updateWaiting = waiting;
  updateListeners.forEach((listener) => listener());
}

function watch(found: ServiceWorkerRegistration) {
  registration = found;
  noteWaiting(found);
  found.addEventListener('updatefound', () => {
    const installing = found.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') noteWaiting(found);
    });
  });
  const check = () => void found.update().catch(() => undefined);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
  window.addEventListener('online', check);
  setInterval(check, UPDATE_CHECK_INTERVAL_MS);
}

export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').then(watch, (error: unknown) => console.warn('Service worker registration failed', error));
  });
}

/** Whether a new version of the app is installed and waits for the grower's reload. */
export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    (listener) => {
      updateListeners.add(listener);
      return () => updateListeners.delete(listener);
    },
    () => updateWaiting,
  );
}

/** Takes the waiting version: its worker takes over (workbox's SKIP_WAITING message), then the page reloads in it. */
export function reloadIntoUpdate(): void {
  const waiting = registration?.waiting;
  // The queue stays in IndexedDB for the new version (one outbox format: sync/outbox.ts).
  if (!waiting) return leaveOnPurpose();
  navigator.serviceWorker.addEventListener('controllerchange', () => leaveOnPurpose(), { once: true });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

/**
 * Whether the app itself is saved on this tablet: a service worker controls the page, which it does
 * only once its precache is complete (it claims the page on its first visit). With the company's data
 * pulled, the tablet can then work with no network (the sync indicator says so).
 */
export function appSavedOffline(): boolean {
  return 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null;
}

/** Calls `listener` when the service worker taking control changes; returns the unsubscribe (for useSyncExternalStore). */
export function onAppSavedOfflineChange(listener: () => void): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  navigator.serviceWorker.addEventListener('controllerchange', listener);
  return () => navigator.serviceWorker.removeEventListener('controllerchange', listener);
}
