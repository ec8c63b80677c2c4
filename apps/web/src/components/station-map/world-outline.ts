import type { FeatureCollection, Geometry, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';

let outline: FeatureCollection | null = null;

/**
 * Rings that cross the antimeridian jump from +180° to −180° between two points, which a flat map draws as a line
 * across the whole world. Unwrapping the longitudes (±360° after a jump) lets the shape continue past the edge.
 */
export function unwrapRing(ring: Position[]): Position[] {
  let shift = 0;
  return ring.map((point, index) => {
    const previous = ring[index - 1];
    if (previous) {
      const jump = (point[0] as number) - (previous[0] as number);
      if (jump > 180) shift -= 360;
      else if (jump < -180) shift += 360;
    }
    return [(point[0] as number) + shift, point[1] as number];
  });
}

function unwrap(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: geometry.coordinates.map(unwrapRing) };
  if (geometry.type === 'MultiPolygon')
    return { ...geometry, coordinates: geometry.coordinates.map((polygon) => polygon.map(unwrapRing)) };
  return geometry;
}

/** Country outlines (Natural Earth 1:110m) packaged with the console: the map's base without any network. */
export function worldOutline(): FeatureCollection {
  if (!outline) {
    const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
    const countries = feature(topology, topology.objects.countries);
    outline = {
      ...countries,
      features: countries.features.map((f) => (f.geometry ? { ...f, geometry: unwrap(f.geometry) } : f)),
    };
  }
  return outline;
}
