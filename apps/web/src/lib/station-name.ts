/** How the console names a station: "Yellow Sea buoy (21005)", or the site ID alone while it has no name. */
export function stationName(station: { site_name: string; dev_id: string }): string {
  return station.site_name ? `${station.site_name} (${station.dev_id})` : station.dev_id;
}
