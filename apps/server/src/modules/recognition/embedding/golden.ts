import type { RawImage } from '../features.ts';

/**
 * Fixed synthetic ROIs whose embeddings the model card records (models/backbone/golden.json) and a test recomputes:
 * the committed network must load and give those numbers. Made by formula, so the test needs no image files.
 */
export function goldenImages(): { name: string; image: RawImage }[] {
  const make = (name: string, width: number, height: number, f: (x: number, y: number) => number) => {
    const data = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const v = Math.max(0, Math.min(255, Math.round(f(x, y))));
        const p = (y * width + x) * 3;
        data[p] = v;
        data[p + 1] = v;
        data[p + 2] = Math.round(v * 0.9);
      }
    return { name, image: { data, width, height, channels: 3 } };
  };
  return [
    // A bright ellipse, tilted: a copepod-like body.
    make('ellipse', 120, 80, (x, y) => {
      const u = ((x - 60) * 0.8 + (y - 40) * 0.6) / 45;
      const v = (-(x - 60) * 0.6 + (y - 40) * 0.8) / 18;
      return u * u + v * v < 1 ? 200 - 120 * (u * u + v * v) : 0;
    }),
    // A thin curved line: a filament.
    make('filament', 200, 40, (x, y) => (Math.abs(y - 20 - 12 * Math.sin(x / 25)) < 2 ? 160 : 0)),
    // A small round dot.
    make('dot', 30, 30, (x, y) => ((x - 15) ** 2 + (y - 15) ** 2 < 49 ? 240 : 0)),
    // A ring with spokes: a radiolarian-like shape.
    make('ring', 90, 90, (x, y) => {
      const r = Math.hypot(x - 45, y - 45);
      const a = Math.atan2(y - 45, x - 45);
      return (r > 25 && r < 30) || (r < 40 && Math.abs(Math.sin(6 * a)) < 0.08) ? 180 : 0;
    }),
  ];
}
