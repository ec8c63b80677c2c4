import crypto from 'node:crypto';
import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MqttBridge, type BridgeEvent } from '../src/modules/mqtt/mqtt-bridge.ts';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { registerIpp } from './helpers/device.ts';
import { TEST_MQTT_URL, mqttAvailable } from './helpers/mqtt.ts';

const silentLog = { info() {}, warn() {}, error() {} } as unknown as ConstructorParameters<typeof MqttBridge>[4];

/** Against the real Mosquitto: telemetry in, retained configuration out, applied report back. */
describe.skipIf(!mqttAvailable)('MQTT device bridge (real broker)', () => {
  let env: TestEnv;
  let w: World;
  let device: MqttClient;
  let devId: string;
  let ipp: { id: number; key: string };

  beforeEach(async () => {
    env = await buildTestApp('sqlite', { config: { MQTT_URL: TEST_MQTT_URL } });
    w = await buildWorld(env);
    // The broker is shared and keeps retained messages: a fresh site ID per test.
    devId = `T${crypto.randomBytes(5).toString('hex')}`;
    ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, devId);
    await env.app.mqtt!.ready();
    device = await mqtt.connectAsync(TEST_MQTT_URL, { clientId: `test-device-${devId}` });
  });
  afterEach(async () => {
    await device.endAsync();
    await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/delete', { id: ipp.id });
    await env.close();
  });

  /** Resolves with the bridge's verdict on the next message from this device. */
  const verdict = () =>
    new Promise<BridgeEvent>((resolve) => {
      const listener = (event: BridgeEvent) => {
        if (event.devId !== devId) return;
        env.app.mqtt!.off('message', listener);
        resolve(event);
      };
      env.app.mqtt!.on('message', listener);
    });
  const publish = async (kind: 'telemetry' | 'status', payload: object | string) => {
    const result = verdict();
    await device.publishAsync(`ipp/${devId}/${kind}`, typeof payload === 'string' ? payload : JSON.stringify(payload), {
      qos: 1,
    });
    return result;
  };
  const one = async () =>
    body(await call(env, w.tokens.ownAdmin, 'POST', '/api/site/ipp-one', { id: ipp.id })).data as {
      online: boolean;
      measured: { temperature_c: number } | null;
      pending: string[];
      config_version: number;
    };
  const nextMessage = (client: MqttClient) =>
    new Promise<Buffer>((resolve) => client.once('message', (_topic: string, payload: Buffer) => resolve(payload)));
  /** The next configuration message on the device's retained topic. */
  const nextConfig = async () => {
    const payload = await nextMessage(device);
    return JSON.parse(payload.toString()) as { dev_id: string; version: number; config: { frame_rate: number } };
  };

  it('stores telemetry sent over MQTT and shows the station online', async () => {
    const event = await publish('telemetry', { key: ipp.key, at: env.clock.now, temperature_c: 16.25, humidity_pct: 44 });
    expect(event).toMatchObject({ ok: true });
    const shown = await one();
    expect(shown.online).toBe(true);
    expect(shown.measured?.temperature_c).toBe(16.25);
  });

  it('drops messages with a wrong key, bad JSON or invalid values, storing nothing', async () => {
    expect(await publish('telemetry', { key: 'ippk_nope', at: env.clock.now, temperature_c: 10 })).toMatchObject({
      ok: false,
      reason: 'unknown device or wrong key',
    });
    expect(await publish('telemetry', '{not json')).toMatchObject({ ok: false, reason: 'not JSON' });
    const invalid = await publish('telemetry', { key: ipp.key, at: env.clock.now, temperature_c: 900 });
    expect(invalid.ok).toBe(false);
    expect(invalid.reason).toContain('temperature_c');
    expect((await one()).measured).toBeNull();
  });

  it('publishes the desired configuration retained, and the applied report turns pending into applied', async () => {
    const first = nextConfig();
    await device.subscribeAsync(`ipp/${devId}/config`, { qos: 1 });
    const retained = await first;
    expect(retained).toMatchObject({ dev_id: devId, version: 1, config: DEFAULT_IPP_CONFIG });

    const changed = nextConfig();
    const saved = body(
      await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/save', {
        id: ipp.id,
        dev_id: devId,
        site_name: 'MQTT site',
        country: '',
        longitude: null,
        latitude: null,
        group_id: w.teamA,
        serial_number: '',
        config: { ...DEFAULT_IPP_CONFIG, frame_rate: 6 },
      }),
    );
    expect(saved.code).toBe(1000);
    expect(await changed).toMatchObject({ version: 2, config: { frame_rate: 6 } });
    await publish('status', { key: ipp.key, state: 'online', applied_config: DEFAULT_IPP_CONFIG });
    expect((await one()).pending).toEqual(['frame_rate']);
    await publish('status', { key: ipp.key, state: 'online', applied_config: { ...DEFAULT_IPP_CONFIG, frame_rate: 6 } });
    expect((await one()).pending).toEqual([]);

    // A device connecting later still gets the current configuration at once (retained).
    const late = await mqtt.connectAsync(TEST_MQTT_URL, { clientId: `late-${devId}` });
    try {
      const message = nextMessage(late);
      await late.subscribeAsync(`ipp/${devId}/config`, { qos: 1 });
      const payload = await message;
      expect(JSON.parse(payload.toString())).toMatchObject({ version: 2, config: { frame_rate: 6 } });
    } finally {
      await late.endAsync();
    }
  });

  it('shows the station offline at once when its last will says so', async () => {
    await publish('telemetry', { key: ipp.key, at: env.clock.now, temperature_c: 15 });
    expect((await one()).online).toBe(true);
    const willing = await mqtt.connectAsync(TEST_MQTT_URL, {
      clientId: `will-${devId}`,
      will: {
        topic: `ipp/${devId}/status`,
        payload: Buffer.from(JSON.stringify({ key: ipp.key, state: 'offline' })),
        qos: 1,
        retain: false,
      },
    });
    const result = verdict();
    // Drop the connection without a clean disconnect: the broker publishes the will.
    willing.stream.destroy();
    expect(await result).toMatchObject({ ok: true });
    expect((await one()).online).toBe(false);
    await willing.endAsync(true).catch(() => undefined);
  });

  it('shares the device topics between server processes of one deployment: each message is handled once', async () => {
    // A second server process: its own bridge (own client) in the same shared-subscription group, on the same database.
    const second = new MqttBridge(TEST_MQTT_URL, env.config.MQTT_GROUP, env.app.devices, async () => [], silentLog);
    try {
      await second.ready();
      const handled: { by: string; topic: string }[] = [];
      const listen = (by: string) => (event: BridgeEvent) => {
        if (event.devId === devId && event.ok) handled.push({ by, topic: event.topic });
      };
      env.app.mqtt!.on('message', listen('first'));
      second.on('message', listen('second'));
      const samples = 20;
      for (let i = 0; i < samples; i++) {
        await device.publishAsync(
          `ipp/${devId}/telemetry`,
          JSON.stringify({ key: ipp.key, at: env.clock.now - i * 60_000, temperature_c: 10 + i / 10 }),
          { qos: 1 },
        );
      }
      await expect.poll(() => handled.length, { timeout: 10_000 }).toBe(samples);
      // Nothing more arrives: no message went to both.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handled.length).toBe(samples);
      // The broker shares the messages out between the two.
      expect(new Set(handled.map((h) => h.by))).toEqual(new Set(['first', 'second']));
      const stored = await env.db.kysely
        .selectFrom('telemetry')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ipp_id', '=', ipp.id)
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(samples);
    } finally {
      await second.close();
    }
  });
});
