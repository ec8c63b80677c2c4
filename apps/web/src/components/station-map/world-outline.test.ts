import { describe, expect, it } from 'vitest';
import { unwrapRing, worldOutline } from './world-outline';

describe('the packaged world outline', () => {
  it('unwraps a ring that crosses the antimeridian instead of jumping across the map', () => {
    expect(
      unwrapRing([
        [178, 60],
        [-179, 61],
        [-178, 62],
        [179, 63],
      ]),
    ).toEqual([
      [178, 60],
      [181, 61],
      [182, 62],
      [179, 63],
    ]);
  });

  it('has no ring with a jump of more than 180° between neighbouring points', () => {
    let rings = 0;
    for (const f of worldOutline().features) {
      const geometry = f.geometry;
      const polygons =
        geometry?.type === 'Polygon' ? [geometry.coordinates] : geometry?.type === 'MultiPolygon' ? geometry.coordinates : [];
      for (const ring of polygons.flat()) {
        rings++;
        for (let i = 1; i < ring.length; i++)
          expect(Math.abs((ring[i]![0] as number) - (ring[i - 1]![0] as number))).toBeLessThanOrEqual(180);
      }
    }
    expect(rings).toBeGreaterThan(150);
  });
});
