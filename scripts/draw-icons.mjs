// Draws the app's icons (public/icons/*.png) from public/icons/icon.svg with sharp: the manifest's
// 192 and 512 px icons (the picture fills them), the maskable 512 px one (the picture already keeps its
// subject within the middle 80 %, the platform's safe zone), the 96 px icons of the shortcuts and the
// 180 px Apple touch icon. Run it when the picture changes: `node scripts/draw-icons.mjs`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const dir = join(import.meta.dirname, '..', 'public', 'icons');
const svg = readFileSync(join(dir, 'icon.svg'));
const sizes = { 'icon-192.png': 192, 'icon-512.png': 512, 'icon-maskable-512.png': 512, 'icon-96.png': 96, 'apple-touch-icon.png': 180 };
for (const [name, size] of Object.entries(sizes)) {
  await sharp(svg, { density: Math.ceil((72 * size) / 512) }).resize(size, size).png({ compressionLevel: 9 }).toFile(join(dir, name));
  console.log(`${name}: ${size}×${size}`);
}
