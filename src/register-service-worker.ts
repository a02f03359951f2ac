/** Registers the service worker (generated into dist/sw.js by workbox-build) after page load (spec part 2 §2). */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.warn('Service worker registration failed', error));
  });
}
