/** The viewer's offset in minutes east of UTC (480 in China), sent as `tz` so days start at local midnight. */
export function viewerTz(date: Date = new Date()): number {
  // getTimezoneOffset is minutes *west* of UTC; `|| 0` turns -0 into 0.
  return -date.getTimezoneOffset() || 0;
}
