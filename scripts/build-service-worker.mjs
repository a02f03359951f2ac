// After `vite build`: generates dist/sw.js with workbox-build. It precaches the app shell and assets
// and answers navigations with index.html, so the app opens with no network (spec part 2 §2: a
// service worker registered from a root-level file after page load). /api is never cached: the
// local store and the outbox are the offline data, not the HTTP cache.
//
// Usage: node scripts/build-service-worker.mjs [outDir]; outDir is where `vite build` wrote the app
// (default dist; the end-to-end tests build into a directory of their own).
import { join } from 'node:path';
import { generateSW } from 'workbox-build';

const outDir = process.argv[2] ?? 'dist';

const { count, size, warnings } = await generateSW({
  globDirectory: outDir,
  globPatterns: ['**/*.{html,js,css,svg,png,webmanifest,woff2}'],
  globIgnores: ['sw.js', 'workbox-*.js', '**/*.map'],
  swDest: join(outDir, 'sw.js'),
  navigateFallback: '/index.html',
  navigateFallbackDenylist: [/^\/api\//],
  cleanupOutdatedCaches: true,
  // The first install takes the page at once; a new version waits until the grower reloads into it
  // (src/register-service-worker.ts; workbox answers its SKIP_WAITING message), so a running tablet
  // keeps the files of the version it runs.
  clientsClaim: true,
  skipWaiting: false,
  maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
  mode: 'production',
  sourcemap: false,
});
for (const warning of warnings) console.warn(warning);
console.log(`service worker: ${count} files precached (${Math.round(size / 1024)} KiB)`);
