import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  app: FastifyInstance;
  /** Stops what feeds the app (the live demo), before the app closes. */
  closeFirst?: () => Promise<void>;
  /** Closes what the server holds besides the app (the database), after the app. */
  closeRest: () => Promise<void>;
  /** The whole shutdown's bound (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  /** Requests in flight get this long before their connections are cut (at most half the bound). */
  graceMs?: number;
  exit?: (code: number) => void;
  log?: (message: string) => void;
}

/**
 * Shutdown within a bound (issue 20: SIGTERM printed "shutting down" and the process never exited while a request was
 * stuck). Requests in flight get a grace period, then their connections are cut; if the app or the database still
 * has not closed when the bound is reached, the process says so and exits with code 1 (a supervisor restarts it).
 */
export function shutdownWithin({
  app,
  closeFirst = async () => undefined,
  closeRest,
  timeoutMs,
  graceMs = Math.min(5000, Math.floor(timeoutMs / 2)),
  exit = (code) => process.exit(code),
  log = (message) => app.log.error(message),
}: ShutdownOptions): Promise<void> {
  let done = false;
  const bound = setTimeout(() => {
    if (done) return;
    done = true;
    log(`shutdown did not complete within ${timeoutMs} ms (a request or the database is stuck): exiting with code 1`);
    exit(1);
  }, timeoutMs);
  // Sockets a client opened but never used, or that carry a stuck request, would keep close() waiting.
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  bound.unref();
  cut.unref();
  return (async () => {
    try {
      await closeFirst();
      await app.close();
      await closeRest();
    } catch (error) {
      if (done) return;
      done = true;
      clearTimeout(bound);
      log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      exit(1);
      return;
    }
    if (done) return;
    done = true;
    clearTimeout(bound);
    clearTimeout(cut);
    exit(0);
  })();
}
