/** Registers the service worker (generated into dist/sw.js by workbox-build) after page load (spec part 2 §2). */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.warn('Service worker registration failed', error));
  });
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
