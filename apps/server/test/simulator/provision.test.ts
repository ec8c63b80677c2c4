import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/security/password.ts';
import { SimLog } from '../../src/simulator/log.ts';
import { provisionInstruments } from '../../src/simulator/provision.ts';
import { buildTestApp, createTeam, createUser, PASSWORD, type TestEnv } from '../helpers/build.ts';

describe('simulator provisioning against the console API', () => {
  let env: TestEnv;
  let server: string;
  let teamA: number;
  const lines: string[] = [];
  const log = new SimLog((l) => lines.push(l));

  beforeEach(async () => {
    env = await buildTestApp('sqlite');
    teamA = await createTeam(env, 'Team A');
    const teamB = await createTeam(env, 'Team B');
    await createUser(env, 'admin_a', 'administrator', { groupId: teamA });
    await createUser(env, 'admin_b', 'administrator', { groupId: teamB });
    await createUser(env, 'su', 'superadmin');
    await createUser(env, 'viewer', 'user', { groupId: teamA, demo: true });
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const address = env.app.server.address();
    server = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterEach(async () => {
    await env.close();
    lines.length = 0;
  });

  const provision = (account: string, count: number, password = PASSWORD) =>
    provisionInstruments({ server, account, password, count, log });
  const rows = () => env.db.kysely.selectFrom('ipps').selectAll().orderBy('dev_id').execute();

  it('registers SIM-001… in the team of the administrator, at real stations, with working keys', async () => {
    const first = await provision('admin_a', 2);
    expect(first.map((i) => i.devId)).toEqual(['SIM-001', 'SIM-002']);
    const stored = await rows();
    expect(stored).toHaveLength(2);
    for (const [n, row] of stored.entries()) {
      expect(row).toMatchObject({ dev_id: `SIM-00${n + 1}`, group_id: teamA });
      expect(row.country).toMatch(/^[A-Z]{2}$/);
      expect(row.site_name).toMatch(/\(simulated\)$/);
      expect(row.latitude).not.toBeNull();
      expect(first[n]!.key).toMatch(/^ippk_[A-Za-z0-9_-]{43}$/);
      expect(hashToken(first[n]!.key)).toBe(row.device_key_hash);
      expect(first[n]!.longitude).toBe(row.longitude);
    }
    expect(stored[0]!.site_name).not.toBe(stored[1]!.site_name);

    // A second run finds them and issues fresh keys instead of registering again.
    const second = await provision('admin_a', 3);
    const again = await rows();
    expect(again.map((r) => r.dev_id)).toEqual(['SIM-001', 'SIM-002', 'SIM-003']);
    for (const n of [0, 1]) {
      expect(second[n]!.key).not.toBe(first[n]!.key);
      expect(hashToken(second[n]!.key)).toBe(again[n]!.device_key_hash);
    }
    expect(lines.filter((l) => l.includes('exists: issued a fresh device key'))).toHaveLength(2);
  });

  it('resumes an existing instrument from its last reading, last clean time included', async () => {
    const [first] = await provision('admin_a', 1);
    const at = env.clock.now - 60_000;
    const lastClean = at - 20 * 60_000;
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/device/telemetry',
      headers: { 'x-device-key': first!.key },
      payload: { at, volume_total_l: 812.5, wiper_clean_count: 77, wiper_last_clean_at: lastClean, storage_gb: 150.25 },
    });
    expect(res.json().code).toBe(1000);
    const [again] = await provision('admin_a', 1);
    expect(again!.resume).toEqual({
      at,
      volumeTotalL: 812.5,
      wiperCleanCount: 77,
      wiperLastCleanAt: lastClean,
      storageFreeGb: 150.25,
    });
  });

  it('refuses the read-only demo account and an account without a team, saying why', async () => {
    await expect(provision('viewer', 1)).rejects.toThrow(/read-only demo account/);
    await expect(provision('su', 1)).rejects.toThrow(/belongs to no team/);
    await expect(provision('admin_a', 1, 'wrong-password')).rejects.toThrow(/signing in as admin_a failed/);
    expect(await rows()).toEqual([]);
  });

  it('explains a site ID taken by another team', async () => {
    await provision('admin_b', 1);
    await expect(provision('admin_a', 1)).rejects.toThrow(/registering SIM-001 failed: .*another team/);
  });
});
