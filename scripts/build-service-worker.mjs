// After `vite build`: generates dist/sw.js with workbox-build. It precaches the app shell and assets
// and answers navigations with index.html, so the app opens with no network (spec part 2 §2: a
// service worker registered from a root-level file after page load). /api is never cached: the
// local store and the outbox are the offline data, not the HTTP cache.
//
// Usage: node scripts/build-service-worker.mjs [outDir]; outDir is where `vite build` wrote the app
// (default dist; the end-to-end tests build into a directory of their own).
//
// The service worker also sends queued changes while no page of the app is open (issue 19,
// workers/background-replay.ts). generateSW makes a classic script, so that code is built first as a
// classic script of its own (an IIFE, named by a hash of its content so a changed one is fetched) and
// loaded with importScripts at the top of sw.js.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { generateSW } from 'workbox-build';

const outDir = process.argv[2] ?? 'dist';
const root = resolve(import.meta.dirname, '..');
// A production build whoever runs it (a test's redeploy runs it under vitest's NODE_ENV=test): packages
// pick their files by it (Dexie's production build), so the same sources make the same file, by name too.
process.env.NODE_ENV = 'production';

await build({
  configFile: false,
  root,
  mode: 'production',
  logLevel: 'warn',
  publicDir: false,
  build: {
    outDir: resolve(outDir),
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    lib: { entry: join(root, 'workers', 'background-replay.ts'), formats: ['iife'], name: 'growroomBackgroundReplay', fileName: () => 'background-replay.js' },
  },
});
const hash = createHash('sha256').update(readFileSync(join(outDir, 'background-replay.js'))).digest('hex').slice(0, 10);
const backgroundReplay = `background-replay-${hash}.js`;
renameSync(join(outDir, 'background-replay.js'), join(outDir, backgroundReplay));

const { count, size, warnings } = await generateSW({
  globDirectory: outDir,
  globPatterns: ['**/*.{html,js,css,svg,png,webmanifest,woff2}'],
  // The background replay is loaded by the service worker itself (importScripts), not by pages.
  globIgnores: ['sw.js', 'workbox-*.js', 'background-replay-*.js', '**/*.map'],
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
// Loaded first, at the top level: a service worker's event listeners must be added while its script is
// first evaluated (generateSW's own importScripts option runs inside workbox's asynchronous module
// loader, where a failure to load is also silent and leaves the worker without workbox's listeners).
const swPath = join(outDir, 'sw.js');
writeFileSync(swPath, `importScripts(${JSON.stringify(backgroundReplay)});\n${readFileSync(swPath, 'utf8')}`);
for (const warning of warnings) console.warn(warning);
console.log(`service worker: ${count} files precached (${Math.round(size / 1024)} KiB); ${backgroundReplay} (${Math.round(readFileSync(join(outDir, backgroundReplay)).length / 1024)} KiB) sends with the app closed`);
