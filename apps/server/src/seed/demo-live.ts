import crypto from 'node:crypto';
import { pendingKeys, type Measured } from '@ipp/contracts';
import { parseApplied, parseStoredConfig } from '../modules/device/device.service.ts';
import type { DeviceCredentials } from '../simulator/args.ts';
import { resumeFrom } from '../simulator/telemetry-model.ts';
import type { Db } from '../db/database.ts';
import { hashToken } from '../security/password.ts';
import { findTeamByName } from '../modules/teams/teams.repository.ts';
import { runSimulator, type SimulatorHandle } from '../simulator/simulator.ts';
import { DEMO_TEAM } from './demo.ts';
import { DEMO_STATIONS } from './demo-history.ts';

/** The demo stations that report live (the fourth stays silent, to show an offline station). */
const LIVE = DEMO_STATIONS.slice(0, 3);

/**
 * Keeps the demo stations live: gives them fresh device keys (held only in memory) and runs the simulator for them
 * against this very server, over the real protocol. Images arrive a few times an hour, telemetry every minute.
 */
export async function startDemoLive(
  db: Db,
  serverUrl: string,
  mqttUrl?: string,
  options: { clock?: () => number } = {},
): Promise<SimulatorHandle | null> {
  const team = await findTeamByName(db.kysely, DEMO_TEAM);
  if (!team) return null;
  const devices: DeviceCredentials[] = [];
  // Same site IDs (the model's seed) and longitudes as their history, so the simulated daily cycles, baselines and
  // wiper schedules carry on where the history ends.
  for (const { dev_id: devId, longitude } of LIVE) {
    const key = `ippk_${crypto.randomBytes(32).toString('base64url')}`;
    const updated = await db.kysely
      .updateTable('ipps')
      .set({ device_key_hash: hashToken(key) })
      .where('dev_id', '=', devId)
      .where('group_id', '=', team.id)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) continue;
    // The counters and the last clean time carry on from the station's latest sample (a device that restarts keeps
    // them; the console restarting does not reset them).
    const latest = await db.kysely
      .selectFrom('ipps')
      .select(['latest_telemetry', 'config', 'config_version', 'applied_config'])
      .where('dev_id', '=', devId)
      .executeTakeFirstOrThrow();
    const m = latest.latest_telemetry ? (JSON.parse(latest.latest_telemetry) as Measured) : null;
    // So does the configuration it ran: the live readings carry on under the same settings as the history's last.
    const config = parseStoredConfig(latest.config);
    const applied = parseApplied(latest.applied_config);
    const running = applied && pendingKeys(config, applied).length === 0 ? { version: latest.config_version, config } : undefined;
    devices.push({ devId, key, longitude, resume: resumeFrom(m), running });
  }
  if (devices.length === 0) return null;
  return runSimulator(
    {
      server: serverUrl,
      count: 0,
      rate: 0.001,
      telemetryIntervalS: 60,
      mqtt: mqttUrl,
      devices,
      account: '',
      password: '',
    },
    // Only the hourly summary reaches the console log.
    {
      log: (line) => (line.includes('devices') || line.includes('device,') ? console.log(`Demo live: ${line}`) : undefined),
      summaryEveryMs: 3_600_000,
      clock: options.clock,
    },
  );
}
