import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStationMap, type StationMapView } from './leaflet-map';

const LABELS = { online: 'Online', offline: 'Offline', open: 'Open' };
let view: StationMapView | null = null;
let element: HTMLDivElement;

function mount(): StationMapView {
  element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: 800 });
  Object.defineProperty(element, 'clientHeight', { value: 400 });
  document.body.append(element);
  view = createStationMap(element);
  return view;
}

afterEach(() => {
  view?.destroy();
  view = null;
  element.remove();
});

describe('Leaflet station map', () => {
  it('draws the outline under the tile pane and a keyboard-focusable marker per placed station', () => {
    const map = mount();
    map.setStations(
      [
        { id: 7, name: 'Buoy', latitude: 36.1, longitude: 121.5, online: true },
        { id: 8, name: 'Fjord', latitude: 60.5, longitude: 5.2, online: false },
        { id: 9, name: 'Nowhere', latitude: null, longitude: null, online: false },
      ],
      LABELS,
      (id) => `/ipp/ipp-view?id=${id}`,
      vi.fn(),
    );
    const outline = element.querySelector<HTMLElement>('.leaflet-outline-pane');
    expect(outline?.style.zIndex).toBe('150');
    expect(outline?.querySelectorAll('path').length ?? 0).toBeGreaterThan(0);
    const markers = [...element.querySelectorAll<HTMLElement>('.station-marker')];
    // Offline drawn first, online last and raised: an online marker is never under an offline one.
    expect(markers.map((marker) => marker.getAttribute('title'))).toEqual(['Fjord · Offline', 'Buoy · Online']);
    expect(Number(markers[1]!.style.zIndex)).toBeGreaterThan(Number(markers[0]!.style.zIndex));
    expect(markers.every((marker) => marker.tabIndex === 0)).toBe(true);
  });

  it('fits the view to the stations once the container has a size, not while it has none', () => {
    element = document.createElement('div');
    let width = 0;
    Object.defineProperty(element, 'clientWidth', { get: () => width });
    Object.defineProperty(element, 'clientHeight', { get: () => (width ? 400 : 0) });
    document.body.append(element);
    view = createStationMap(element);
    view.setStations(
      [
        { id: 7, name: 'Buoy', latitude: 36.1, longitude: 121.5, online: true },
        { id: 8, name: 'Fjord', latitude: 60.5, longitude: 5.2, online: false },
      ],
      LABELS,
      String,
      vi.fn(),
    );
    width = 800;
    view.resize();
    const lefts = [...element.querySelectorAll<HTMLElement>('.station-marker')].map((marker) => parseFloat(marker.style.left));
    expect(lefts).toHaveLength(2);
    for (const left of lefts) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left).toBeLessThanOrEqual(800);
    }
  });

  it('adds tiles from the configured template and removes them when it is cleared', () => {
    const map = mount();
    map.setTiles('https://tiles.example.org/{z}/{x}/{y}.png');
    expect(element.querySelector('.leaflet-tile-pane .leaflet-layer')).not.toBeNull();
    map.setTiles('');
    expect(element.querySelector('.leaflet-tile-pane .leaflet-layer')).toBeNull();
  });
});
