export interface MapStation {
  id: number;
  name: string;
  latitude: number | null;
  longitude: number | null;
  online: boolean;
}

export interface MapLabels {
  online: string;
  offline: string;
  /** Text of the popup's link to the station preview. */
  open: string;
}

export const ONLINE_COLOR = '#2e7d32';
export const OFFLINE_COLOR = '#757575';

/** Stations that can be drawn: both coordinates known and on the globe. */
export function placedStations(stations: readonly MapStation[]): (MapStation & { latitude: number; longitude: number })[] {
  return stations.filter(
    (station): station is MapStation & { latitude: number; longitude: number } =>
      station.latitude !== null &&
      station.longitude !== null &&
      Math.abs(station.latitude) <= 90 &&
      Math.abs(station.longitude) <= 180,
  );
}

export const MARKER_SIZE = 18;

/** How far apart (px) stations at the same place are fanned out, so each stays visible and clickable. */
export const COLOCATED_SHIFT = 12;

/**
 * The order and pixel shift of each marker. Offline ones first and online ones last (Leaflet draws the later over
 * the earlier, and the map gives online markers a higher z-index too): an online station never hides under an
 * offline one at the same place (issue 20). Stations at the same coordinates are fanned out sideways.
 */
export function drawPlan<T extends MapStation & { latitude: number; longitude: number }>(
  placed: readonly T[],
): { station: T; dx: number }[] {
  const ordered = [...placed].sort((a, b) => Number(a.online) - Number(b.online));
  const seen = new Map<string, number>();
  const groups = new Map<string, number>();
  for (const station of ordered) {
    const key = `${station.latitude.toFixed(4)},${station.longitude.toFixed(4)}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return ordered.map((station) => {
    const key = `${station.latitude.toFixed(4)},${station.longitude.toFixed(4)}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const size = groups.get(key) ?? 1;
    return { station, dx: Math.round((index - (size - 1) / 2) * COLOCATED_SHIFT) };
  });
}

/** A dot, green when online and grey when not; the white ring keeps either readable over tiles and outlines. */
export function markerHtml(online: boolean): string {
  const color = online ? ONLINE_COLOR : OFFLINE_COLOR;
  return `<span style="display:block;box-sizing:border-box;width:${MARKER_SIZE}px;height:${MARKER_SIZE}px;border-radius:50%;background:${color};border:3px solid #fff;box-shadow:0 0 3px rgba(0,0,0,.6)"></span>`;
}

/**
 * The popup of one station: its name, its state and a link to its preview. The link is a real address (open in a
 * new tab works); a plain click is handed to `onOpen` so the console navigates without reloading.
 */
export function popupContent(station: MapStation, href: string, labels: MapLabels, onOpen: () => void): HTMLElement {
  const root = document.createElement('div');
  const name = document.createElement('strong');
  name.textContent = station.name;
  const state = document.createElement('div');
  state.textContent = station.online ? labels.online : labels.offline;
  state.style.color = station.online ? ONLINE_COLOR : OFFLINE_COLOR;
  const link = document.createElement('a');
  link.href = href;
  link.textContent = labels.open;
  link.dataset.testid = `map-open-${station.id}`;
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen();
  });
  root.append(name, state, link);
  return root;
}
