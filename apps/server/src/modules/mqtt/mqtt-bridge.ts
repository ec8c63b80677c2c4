import { EventEmitter, once } from 'node:events';
import crypto from 'node:crypto';
import { DeviceStatusSchema, MQTT_TOPICS, MqttTelemetrySchema, type DeviceConfig } from '@ipp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceService } from '../device/device.service.ts';
import type { ConfigPublisher } from '../ipps/ipps.service.ts';

const TOPIC = /^ipp\/([A-Za-z0-9_-]{1,32})\/(telemetry|status)$/;

export interface BridgeEvent {
  topic: string;
  devId: string;
  ok: boolean;
  reason?: string;
}

/**
 * The MQTT side of the device protocol (docs/device-protocol.md): telemetry and status in, the desired
 * configuration out as retained messages. MQTT has no answer channel, so refused messages are logged and
 * emitted as 'message' events (tests listen to them). Device topics are read through a shared subscription
 * (`$share/<group>/…`): several server processes of one deployment each get a share, every message goes to one.
 */
export class MqttBridge extends EventEmitter implements ConfigPublisher {
  /** The newest configuration version sent per instrument (two saves at once may finish publishing out of order). */
  private readonly sentVersions = new Map<string, number>();
  private readonly client: MqttClient;

  constructor(
    url: string,
    private readonly group: string,
    private readonly devices: DeviceService,
    private readonly allConfigs: () => Promise<DeviceConfig[]>,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
    this.client = mqtt.connect(url, {
      clientId: `ipp-console-${crypto.randomBytes(4).toString('hex')}`,
      reconnectPeriod: 2000,
      connectTimeout: 10_000,
    });
    this.client.on('connect', () => void this.onConnect());
    this.client.on('error', (error) => this.log.warn({ err: error }, 'MQTT error'));
    this.client.on('message', (topic, payload) => void this.onMessage(topic, payload));
  }

  /** Resolves once subscribed and the retained configurations are published. */
  async ready(timeoutMs = 10_000): Promise<void> {
    if (this.subscribed) return;
    await once(this, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
  }

  private subscribed = false;

  private async onConnect() {
    try {
      const shared = (topic: string) => `$share/${this.group}/${topic}`;
      await this.client.subscribeAsync([shared(MQTT_TOPICS.telemetry('+')), shared(MQTT_TOPICS.status('+'))], { qos: 1 });
      for (const config of await this.allConfigs()) this.publish(config);
      this.subscribed = true;
      this.log.info(`MQTT bridge subscribed to ipp/+/telemetry and ipp/+/status (shared group ${this.group})`);
      this.emit('ready');
    } catch (error) {
      this.log.error({ err: error }, 'MQTT subscribe failed');
    }
  }

  /** The retained configuration, unless this process already sent a newer version for that instrument. */
  publish(config: DeviceConfig) {
    if ((this.sentVersions.get(config.dev_id) ?? -1) > config.version) return;
    this.sentVersions.set(config.dev_id, config.version);
    this.client.publish(MQTT_TOPICS.config(config.dev_id), JSON.stringify(config), { qos: 1, retain: true });
  }

  /** An empty retained message removes the retained configuration. */
  clear(devId: string) {
    this.sentVersions.delete(devId);
    this.client.publish(MQTT_TOPICS.config(devId), '', { qos: 1, retain: true });
  }

  private async onMessage(topic: string, payload: Buffer) {
    const match = TOPIC.exec(topic);
    if (!match) return;
    const devId = match[1] as string;
    const kind = match[2] as 'telemetry' | 'status';
    const done = (ok: boolean, reason?: string) => {
      if (!ok) this.log.warn({ topic, reason }, 'MQTT message refused');
      this.emit('message', { topic, devId, ok, reason } satisfies BridgeEvent);
    };
    try {
      let json: unknown;
      try {
        json = JSON.parse(payload.toString('utf8'));
      } catch {
        return done(false, 'not JSON');
      }
      if (kind === 'telemetry') {
        const parsed = MqttTelemetrySchema.safeParse(json);
        if (!parsed.success) return done(false, describe(parsed.error));
        const { key, ...sample } = parsed.data;
        const device = await this.devices.authenticateFor(devId, key);
        if (!device) return done(false, 'unknown device or wrong key');
        await this.devices.ingestTelemetry(device, sample);
      } else {
        const parsed = DeviceStatusSchema.safeParse(json);
        if (!parsed.success) return done(false, describe(parsed.error));
        const { key, ...status } = parsed.data;
        const device = await this.devices.authenticateFor(devId, key);
        if (!device) return done(false, 'unknown device or wrong key');
        await this.devices.applyStatus(device, status);
      }
      done(true);
    } catch (error) {
      done(false, error instanceof Error ? error.message : String(error));
    }
  }

  async close() {
    await this.client.endAsync();
  }
}

function describe(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  const issue = error.issues[0];
  return `${issue?.path.map(String).join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
}
