import { describe, expect, it, vi } from 'vitest';
import {
  COLOCATED_SHIFT,
  drawPlan,
  markerHtml,
  OFFLINE_COLOR,
  ONLINE_COLOR,
  placedStations,
  popupContent,
  type MapStation,
} from './markers';
import { worldOutline } from './world-outline';

const LABELS = { online: 'Online', offline: 'Offline', open: 'Open the station preview' };
const station = (overrides: Partial<MapStation> = {}): MapStation => ({
  id: 7,
  name: 'Yellow Sea buoy (21005)',
  latitude: 36.1,
  longitude: 121.5,
  online: true,
  ...overrides,
});

describe('station markers', () => {
  it('are drawn only for stations with both coordinates on the globe', () => {
    const placed = placedStations([
      station(),
      station({ id: 8, latitude: null }),
      station({ id: 9, longitude: null }),
      station({ id: 10, latitude: 91 }),
    ]);
    expect(placed.map((s) => s.id)).toEqual([7]);
  });

  it('draw online stations over offline ones and fan out stations at the same place', () => {
    const plan = drawPlan(
      placedStations([
        station({ id: 1, online: true }),
        station({ id: 2, online: false }),
        station({ id: 3, online: false, latitude: 10, longitude: 10 }),
      ]),
    );
    // Online last: drawn on top.
    expect(plan.map((p) => p.station.id)).toEqual([2, 3, 1]);
    const shift = Object.fromEntries(plan.map((p) => [p.station.id, p.dx]));
    expect(Math.abs(shift[1]! - shift[2]!)).toBe(COLOCATED_SHIFT);
    expect(shift[3]).toBe(0);
  });

  it('are green when online and grey when offline', () => {
    expect(markerHtml(true)).toContain(ONLINE_COLOR);
    expect(markerHtml(false)).toContain(OFFLINE_COLOR);
  });

  it('open a popup naming the station and its state, linking to its preview inside the console', () => {
    const onOpen = vi.fn();
    const popup = popupContent(station({ online: false }), '/ipp/ipp-view?id=7', LABELS, onOpen);
    expect(popup.textContent).toContain('Yellow Sea buoy (21005)');
    expect(popup.textContent).toContain('Offline');
    const link = popup.querySelector('a') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/ipp/ipp-view?id=7');

    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(click.defaultPrevented).toBe(true);

    // Ctrl-click keeps the browser's own behaviour (a new tab).
    const newTab = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    link.dispatchEvent(newTab);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(newTab.defaultPrevented).toBe(false);
  });
});

describe('world outline', () => {
  it('is the packaged country outline as GeoJSON, usable without network', () => {
    const outline = worldOutline();
    expect(outline.type).toBe('FeatureCollection');
    expect(outline.features.length).toBeGreaterThan(150);
    expect(outline.features.every((feature) => ['Polygon', 'MultiPolygon'].includes(feature.geometry.type))).toBe(true);
  });
});
