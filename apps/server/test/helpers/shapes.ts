import sharp from 'sharp';
import { mulberry32 } from '../../src/lib/random.ts';

export type Shape = 'disc' | 'rod' | 'ring';

/**
 * A dark-field test image of a known shape: a bright disc, a long thin rod at some angle, or a large ring, with
 * size and brightness varied by the seed and a little background noise.
 */
export async function shapePng(shape: Shape, seed: number, size = 64): Promise<Buffer> {
  const r = mulberry32(seed);
  const px = new Uint8Array(size * size);
  const c = size / 2 + (r() - 0.5) * 4;
  const angle = r() * Math.PI;
  const [ca, sa] = [Math.cos(angle), Math.sin(angle)];
  const bright = 150 + Math.round(r() * 80);
  const radius = 6 + r() * 3;
  const outer = 22 + r() * 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [dx, dy] = [x - c, y - c];
      let inside = false;
      if (shape === 'disc') inside = dx * dx + dy * dy <= radius * radius;
      else if (shape === 'rod') {
        const u = dx * ca + dy * sa;
        const v = -dx * sa + dy * ca;
        inside = (u / 24) ** 2 + (v / 2.5) ** 2 <= 1;
      } else {
        const d = Math.sqrt(dx * dx + dy * dy);
        inside = d <= outer && d >= outer - 4;
      }
      px[y * size + x] = inside ? bright : Math.round(r() * 2);
    }
  }
  return sharp(Buffer.from(px), { raw: { width: size, height: size, channels: 1 } })
    .png()
    .toBuffer();
}
