/**
 * How often an instrument's pages ask again until the server pushes changes (issue 23): soon while the device has a
 * setting to apply, so "Applied" shows within seconds of its report; otherwise about as often as it reports telemetry.
 */
export const PENDING_POLL_MS = 5_000;
export const IDLE_POLL_MS = 30_000;

export const pollWhile = (pending: boolean) => (pending ? PENDING_POLL_MS : IDLE_POLL_MS);
