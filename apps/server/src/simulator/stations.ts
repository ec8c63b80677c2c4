/** Where provisioned simulator stations are placed: coastal sites where in-situ plankton imagers are deployed. */
export interface Station {
  site: string;
  country: string;
  latitude: number;
  longitude: number;
}

export const STATIONS: readonly Station[] = [
  { site: 'Prince William Sound', country: 'US', latitude: 60.69, longitude: -146.95 },
  { site: 'Yellow Sea, Qingdao', country: 'CN', latitude: 35.98, longitude: 120.62 },
  { site: 'North Sea, Helgoland Roads', country: 'DE', latitude: 54.18, longitude: 7.9 },
  { site: 'Jiaozhou Bay', country: 'CN', latitude: 36.12, longitude: 120.27 },
  { site: 'Bay of Villefranche', country: 'FR', latitude: 43.68, longitude: 7.32 },
  { site: 'Monterey Bay', country: 'US', latitude: 36.8, longitude: -121.9 },
  { site: 'Sagami Bay', country: 'JP', latitude: 35.16, longitude: 139.35 },
  { site: 'Oslofjord', country: 'NO', latitude: 59.68, longitude: 10.62 },
  { site: 'Gulf of Naples', country: 'IT', latitude: 40.81, longitude: 14.25 },
  { site: 'Bedford Basin', country: 'CA', latitude: 44.69, longitude: -63.64 },
  { site: 'Port Phillip Bay', country: 'AU', latitude: -38.13, longitude: 144.88 },
  { site: 'Daya Bay', country: 'CN', latitude: 22.6, longitude: 114.6 },
  { site: 'Gotland Deep', country: 'SE', latitude: 57.32, longitude: 20.05 },
  { site: 'Jeju Strait', country: 'KR', latitude: 33.75, longitude: 126.6 },
];

/** The station of the n-th simulated instrument (1-based); past the list, sites repeat a little further out. */
export function stationOf(n: number): Station {
  const base = STATIONS[(n - 1) % STATIONS.length] as Station;
  const round = Math.floor((n - 1) / STATIONS.length);
  if (round === 0) return base;
  const shift = (v: number) => Math.round(v * 100) / 100;
  return {
    site: `${base.site} ${round + 1}`,
    country: base.country,
    latitude: shift(Math.max(-89, Math.min(89, base.latitude + 0.07 * round))),
    longitude: shift(((base.longitude + 0.09 * round + 540) % 360) - 180),
  };
}
