// After `vite build`: generates dist/sw.js with workbox-build. It precaches the app shell and assets
// and answers navigations with index.html, so the app opens with no network (spec part 2 §2: a
// service worker registered from a root-level file after page load). /api is never cached: the
// local store and the outbox are the offline data, not the HTTP cache.
import { generateSW } from 'workbox-build';

const { count, size, warnings } = await generateSW({
  globDirectory: 'dist',
  globPatterns: ['**/*.{html,js,css,svg,png,webmanifest,woff2}'],
  globIgnores: ['sw.js', 'workbox-*.js', '**/*.map'],
  swDest: 'dist/sw.js',
  navigateFallback: '/index.html',
  navigateFallbackDenylist: [/^\/api\//],
  cleanupOutdatedCaches: true,
  clientsClaim: true,
  skipWaiting: true,
  maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
  mode: 'production',
  sourcemap: false,
});
for (const warning of warnings) console.warn(warning);
console.log(`service worker: ${count} files precached (${Math.round(size / 1024)} KiB)`);
