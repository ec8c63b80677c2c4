import crypto from 'node:crypto';
import { MQTT_TOPICS, type IppConfig } from '@ipp/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeEvent } from '../../src/modules/mqtt/mqtt-bridge.ts';
import { runSimulator, type SimulatorHandle } from '../../src/simulator/simulator.ts';
import { TEST_MQTT_URL, mqttAvailable } from '../helpers/mqtt.ts';
import { startConsoleServer, until, type ConsoleServer, type Station } from './console-server.ts';

/** The simulator against the real server with its MQTT bridge, through the real broker. */
describe.skipIf(!mqttAvailable)('simulator over MQTT against the real server', () => {
  // The broker is shared and keeps retained messages: a fresh site ID per run.
  const devId = `SIMT-${crypto.randomBytes(4).toString('hex')}`;
  let server: ConsoleServer;
  let station: Station;
  let sim: SimulatorHandle | undefined;
  /** Listens on the broker to what the device publishes (the server's verdicts do not carry the messages). */
  let observer: MqttClient;
  const published: { topic: string; message: Record<string, unknown> }[] = [];
  /** The bridge's verdict on every message of this device. */
  const verdicts: BridgeEvent[] = [];
  /** Device requests the server saw over HTTP. */
  const deviceHttp: string[] = [];

  beforeAll(async () => {
    server = await startConsoleServer({
      mqttUrl: TEST_MQTT_URL,
      beforeReady(app) {
        app.addHook('onRequest', async (request) => {
          if (request.url.startsWith('/api/device/')) deviceHttp.push(`${request.method} ${request.url}`);
        });
      },
    });
    station = await server.register(devId);
    await server.env.app.mqtt!.ready();
    server.env.app.mqtt!.on('message', (event: BridgeEvent) => {
      if (event.devId === devId) verdicts.push(event);
    });
    observer = await mqtt.connectAsync(TEST_MQTT_URL, { clientId: `observer-${devId}` });
    observer.on('message', (topic, payload) => {
      if (payload.length) published.push({ topic, message: JSON.parse(payload.toString()) as Record<string, unknown> });
    });
    await observer.subscribeAsync([MQTT_TOPICS.status(devId), MQTT_TOPICS.telemetry(devId)], { qos: 1 });
  });
  afterEach(() => sim?.stop());
  afterAll(async () => {
    await observer?.endAsync();
    // Removing the instrument clears its retained configuration on the broker.
    if (station) expect(await server.remove(station)).toBe(true);
    await server?.close();
  });

  const statuses = () => published.filter((p) => p.topic === MQTT_TOPICS.status(devId)).map((p) => p.message);
  const telemetry = () => published.filter((p) => p.topic === MQTT_TOPICS.telemetry(devId)).map((p) => p.message);
  const appliedOf = (message: Record<string, unknown>) => message.applied_config as Partial<IppConfig> | undefined;

  it('applies the retained configuration and later changes, reports them, sends telemetry, says offline at the end', async () => {
    // Changed in the console before the device connects: the retained message holds it.
    expect(await server.changeConfig(station.id, { frame_rate: 4.5 })).toMatchObject({ config_version: 2 });
    sim = await runSimulator(
      {
        server: server.url,
        count: 1,
        rate: 0,
        telemetryIntervalS: 0.2,
        mqtt: TEST_MQTT_URL,
        devices: [{ devId, key: station.key }],
        account: '',
        password: '',
      },
      { log: () => undefined, applyDelayMs: [5, 20] },
    );
    await until('a status with the retained configuration applied', () =>
      statuses().some((s) => appliedOf(s)?.frame_rate === 4.5),
    );
    await until('the console showing the retained configuration applied', async () => {
      const ipp = await server.one(station.id);
      return ipp.online && ipp.applied_config?.frame_rate === 4.5 && ipp.pending.length === 0;
    });

    await server.changeConfig(station.id, { frame_rate: 2, gain: 7 });
    await until('stored telemetry reporting the new configuration', async () =>
      (await server.telemetryOf(station.id)).some((t) => t.applied_config !== null && JSON.parse(t.applied_config).gain === 7),
    );
    await until('a few stored telemetry samples', async () => (await server.telemetryOf(station.id)).length >= 3);
    expect(await server.one(station.id)).toMatchObject({
      online: true,
      config_version: 3,
      applied_config: { frame_rate: 2, gain: 7 },
      pending: [],
    });
    await sim.stop();
    await until('the console showing the station offline', async () => !(await server.one(station.id)).online);

    // The server took every message the device published (right key, valid), and stored each sample.
    await until('the server judging every message', () => verdicts.length === published.length);
    expect(verdicts.filter((v) => !v.ok)).toEqual([]);
    expect(statuses().some((s) => appliedOf(s)?.gain === 7)).toBe(true);
    expect(statuses()[0]).toMatchObject({ key: station.key, state: 'online' });
    expect(statuses().at(-1)).toMatchObject({ key: station.key, state: 'offline' });
    expect(telemetry().every((t) => t.key === station.key)).toBe(true);
    // The bridge handles messages concurrently, so rows need not be in the order of publication.
    const byTime = (a: number, b: number) => a - b;
    expect((await server.telemetryOf(station.id)).map((t) => t.at).sort(byTime)).toEqual(
      telemetry()
        .map((t) => t.at as number)
        .sort(byTime),
    );
    // Configuration came over MQTT only; HTTP saw neither telemetry nor a configuration fetch.
    expect(deviceHttp).toEqual([]);
  });
});
