/** Rollup time keys (hours, statistics days), shared by the rollup writers and their readers; this imports nothing. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const hourOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
/** Start of the statistics day holding `time`, for days starting at UTC+offsetHours. */
export const dayOf = (time: number, offsetHours: number) => {
  const offset = offsetHours * HOUR_MS;
  return Math.floor((time + offset) / DAY_MS) * DAY_MS - offset;
};
