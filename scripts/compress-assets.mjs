// After the build (and the service worker): writes a brotli (.br) and a gzip (.gz) copy beside every
// text file of the app worth compressing, so the server sends them without compressing on each
// request (@fastify/static `preCompressed`). Brotli at its best quality: done once per build.
//
// Usage: node scripts/compress-assets.mjs [outDir] (default dist).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const outDir = process.argv[2] ?? 'dist';
/** Below this, the headers weigh more than what compression saves. */
const MIN_BYTES = 1024;
const TEXT = /\.(html|js|mjs|css|svg|json|webmanifest|txt)$/;

function* files(directory) {
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let raw = 0;
let compressed = 0;
let count = 0;
for (const path of files(outDir)) {
  if (!TEXT.test(path)) continue;
  const content = readFileSync(path);
  if (content.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
  writeFileSync(`${path}.br`, brotli);
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  raw += content.length;
  compressed += brotli.length;
  count += 1;
}
console.log(`compressed ${count} files: ${Math.round(raw / 1024)} KiB → ${Math.round(compressed / 1024)} KiB with brotli`);
