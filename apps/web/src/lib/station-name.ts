/** How the console names a station: "Yellow Sea buoy (21005)", or the site ID alone while it has no name. */
export function stationName(station: { site_name: string; dev_id: string }): string {
  return station.site_name ? `${station.site_name} (${station.dev_id})` : station.dev_id;
}

/**
 * The same name with the site ID first, "21005 · Yellow Sea buoy": for a narrow box that may cut it, where the site ID
 * must stay whole (issue 37: "Yellow Sea, Qingdao 黄海青岛 (…" hid the ID that tells two stations apart).
 */
export function stationNameIdFirst(station: { site_name: string; dev_id: string }): string {
  return station.site_name ? `${station.dev_id} · ${station.site_name}` : station.dev_id;
}
