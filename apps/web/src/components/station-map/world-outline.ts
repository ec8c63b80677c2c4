import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-110m.json';

let outline: FeatureCollection | null = null;

/** Country outlines (Natural Earth 1:110m) packaged with the console: the map's base without any network. */
export function worldOutline(): FeatureCollection {
  if (!outline) {
    const topology = atlas as unknown as Topology<{ countries: GeometryCollection }>;
    outline = feature(topology, topology.objects.countries);
  }
  return outline;
}
