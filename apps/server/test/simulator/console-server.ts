import type { Ipp, IppConfig, IppSaveResult, IppWithKey } from '@ipp/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.ts';
import { call } from '../helpers/actors.ts';
import { body, buildTestApp, createTeam, createUser, login, type FakeClock } from '../helpers/build.ts';
import { registerIpp } from '../helpers/device.ts';

/** An instrument registered in the console: its id, site ID and the device key shown once. */
export interface Station {
  id: number;
  devId: string;
  key: string;
}

/**
 * The simulator stamps samples and images with real time, and the server refuses times more than 10 minutes
 * ahead of its clock and judges online status by it: the test clock follows the wall clock here.
 */
function followWallClock(clock: FakeClock) {
  Object.defineProperty(clock, 'now', {
    configurable: true,
    get: () => Date.now(),
    set: () => {
      throw new Error('this test clock follows the wall clock');
    },
  });
}

/**
 * The real console server (fresh SQLite database, temporary DATA_DIR) listening on 127.0.0.1, with one team and
 * its administrator signed in, for the simulator to talk to over real HTTP (and MQTT when `mqttUrl` is given).
 * `beforeReady` may add test hooks to the server, e.g. to observe or disturb device requests.
 */
export async function startConsoleServer(
  options: {
    mqttUrl?: string;
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    config?: Partial<Config>;
  } = {},
) {
  const env = await buildTestApp('sqlite', {
    config: { ...options.config, ...(options.mqttUrl ? { MQTT_URL: options.mqttUrl } : {}) },
    beforeReady: options.beforeReady,
  });
  followWallClock(env.clock);
  const team = await createTeam(env, 'Simulated stations');
  await createUser(env, 'sim_admin', 'administrator', { groupId: team });
  const token = await login(env, 'sim_admin');
  await env.app.listen({ port: 0, host: '127.0.0.1' });
  const address = env.app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('the test server is not listening on a port');

  /** A console API call as the team's administrator; answers `data`, throws on any other code than 1000. */
  async function api<T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> {
    const answer = body(await call(env, token, method, url, payload));
    if (answer.code !== 1000) throw new Error(`${method} ${url} answered ${JSON.stringify(answer)}`);
    return answer.data as T;
  }
  const one = (id: number) => api<Ipp>('POST', '/api/site/ipp-one', { id });

  return {
    env,
    url: `http://127.0.0.1:${address.port}`,
    api,
    /** The instrument as the console shows it (online, config, applied_config, pending, …). */
    one,
    async register(devId: string): Promise<Station> {
      const { id, key } = await registerIpp(env, token, team, devId);
      return { id, devId, key };
    },
    /** A configuration change made in the console (POST /api/ipp/save); answers the instrument as saved. */
    async changeConfig(id: number, change: Partial<IppConfig>): Promise<Ipp> {
      const ipp = await one(id);
      const saved = await api<IppSaveResult>('POST', '/api/ipp/save', {
        id,
        dev_id: ipp.dev_id,
        site_name: ipp.site_name,
        country: ipp.country,
        longitude: ipp.longitude,
        latitude: ipp.latitude,
        group_id: ipp.group_id,
        serial_number: ipp.serial_number,
        config: { ...ipp.config, ...change },
      });
      return saved.ipp;
    },
    /** "Rotate key": answers the new key; the old one is refused from now on. */
    async rotateKey(id: number): Promise<string> {
      return (await api<IppWithKey>('POST', '/api/ipp/rotate-key', { id })).device_key;
    },
    /** The stored telemetry rows of an instrument, in the order they were stored. */
    telemetryOf: (id: number) =>
      env.db.kysely.selectFrom('telemetry').selectAll().where('ipp_id', '=', id).orderBy('id').execute(),
    /** The stored ROI rows of an instrument, in the order they were stored. */
    roisOf: (id: number) => env.db.kysely.selectFrom('rois').selectAll().where('ipp_id', '=', id).orderBy('id').execute(),
    /**
     * Removes the instrument (the server then clears its retained MQTT configuration). The console refuses while it
     * has images; the database is temporary then, but the broker is shared, so the retained configuration is
     * cleared anyway. Answers whether the instrument was removed.
     */
    async remove(station: Station): Promise<boolean> {
      const answer = body(await call(env, token, 'POST', '/api/ipp/delete', { id: station.id }));
      if (answer.code !== 1000) env.app.mqtt?.clear(station.devId);
      return answer.code === 1000;
    },
    /**
     * Stop the simulator first. A stopped simulator can leave sockets its HTTP client opened but never sent a
     * request on; Node 20 does not count those as idle, so a plain close would wait for them (headersTimeout, 60 s).
     */
    async close() {
      env.app.server.closeAllConnections();
      await env.close();
    },
  };
}

export type ConsoleServer = Awaited<ReturnType<typeof startConsoleServer>>;

/** Polls until `check` holds; fails with `what` if it does not within `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
