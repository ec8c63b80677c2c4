// Loaded lazily by <StationMap>: Leaflet, its styles and the packaged world outline stay out of other pages.
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { drawPlan, MARKER_SIZE, markerHtml, placedStations, popupContent, type MapLabels, type MapStation } from './markers';
import { worldOutline } from './world-outline';

export interface StationMapView {
  setStations(
    stations: readonly MapStation[],
    labels: MapLabels,
    hrefOf: (id: number) => string,
    onOpen: (id: number) => void,
  ): void;
  /** '' = no tiles: the outline alone. */
  setTiles(url: string): void;
  resize(): void;
  destroy(): void;
}

const SEA = '#c6dbef';
const OUTLINE_STYLE: L.PathOptions = { color: '#7f8c9d', weight: 0.7, fillColor: '#f3f1ea', fillOpacity: 1 };
const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export function createStationMap(element: HTMLElement): StationMapView {
  const map = L.map(element, { worldCopyJump: true, minZoom: 1, maxZoom: 18, zoomSnap: 0.5 });
  map.getContainer().style.background = SEA;
  // Under the tile pane (z-index 200): loaded tiles cover the outline, and without network the outline still shows.
  const outlinePane = map.createPane('outline');
  outlinePane.style.zIndex = '150';
  L.geoJSON(worldOutline(), { pane: 'outline', style: OUTLINE_STYLE, interactive: false }).addTo(map);
  map.setView([20, 0], 1.5);

  const markers = L.layerGroup().addTo(map);
  let tiles: L.TileLayer | null = null;
  let fittedTo = '';
  let pendingFit: L.LatLngBounds | null = null;

  // A container without size (not laid out yet) cannot be fitted: the zoom would come out NaN. Wait for a resize.
  const fit = () => {
    const size = map.getSize();
    if (!pendingFit || size.x === 0 || size.y === 0) return;
    map.fitBounds(pendingFit, { padding: [40, 40], maxZoom: 6 });
    pendingFit = null;
  };

  return {
    setStations(stations, labels, hrefOf, onOpen) {
      markers.clearLayers();
      const placed = placedStations(stations);
      for (const { station, dx } of drawPlan(placed)) {
        const icon = L.divIcon({
          html: markerHtml(station.online),
          className: 'station-marker',
          iconSize: [MARKER_SIZE, MARKER_SIZE],
          iconAnchor: [MARKER_SIZE / 2 - dx, MARKER_SIZE / 2],
        });
        const state = station.online ? labels.online : labels.offline;
        // Markers take keyboard focus; Enter opens the popup.
        L.marker([station.latitude, station.longitude], {
          icon,
          title: `${station.name} · ${state}`,
          alt: station.name,
          keyboard: true,
          // Online over offline wherever they overlap (Leaflet otherwise stacks by latitude).
          zIndexOffset: station.online ? 1000 : 0,
        })
          .bindPopup(popupContent(station, hrefOf(station.id), labels, () => onOpen(station.id)))
          .addTo(markers);
      }
      // Fit once per set of stations, so a refresh does not undo the user's zoom.
      const key = placed.map((station) => `${station.id}:${station.latitude}:${station.longitude}`).join('|');
      if (placed.length > 0 && key !== fittedTo) {
        fittedTo = key;
        pendingFit = L.latLngBounds(placed.map((station) => [station.latitude, station.longitude] as L.LatLngTuple));
        fit();
      }
    },
    setTiles(url) {
      tiles?.remove();
      tiles = url
        ? L.tileLayer(url, { maxZoom: 18, attribution: url.includes('openstreetmap') ? OSM_ATTRIBUTION : '' }).addTo(map)
        : null;
    },
    resize() {
      map.invalidateSize();
      fit();
    },
    destroy() {
      map.remove();
    },
  };
}
