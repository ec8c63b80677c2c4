/** Decimal degrees with the hemisphere letter, e.g. "30.2741°N, 120.1551°E"; null without both values. */
export function formatCoordinates(longitude: number | null, latitude: number | null): string | null {
  if (longitude === null || latitude === null) return null;
  const lat = `${Math.abs(latitude).toFixed(4)}°${latitude < 0 ? 'S' : 'N'}`;
  const lon = `${Math.abs(longitude).toFixed(4)}°${longitude < 0 ? 'W' : 'E'}`;
  return `${lat}, ${lon}`;
}
