import crypto from 'node:crypto';
import {
  DeviceConfigSchema,
  MQTT_TOPICS,
  type DeviceConfig,
  type DeviceStatus,
  type IppConfig,
  type TelemetrySampleInput,
} from '@ipp/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { errorText, type SimLog } from './log.ts';

export interface MqttHandlers {
  /** A configuration document arrived on ipp/{dev_id}/config (retained: also right after each connect). */
  onConfig(doc: DeviceConfig): void;
  /** Connected (first time or again): the device announces itself. */
  onConnect(): void;
}

const CLOSE_TIMEOUT_MS = 3000;

/** One instrument's MQTT connection: telemetry and status out, configuration in, an `offline` last will. */
export class MqttLink {
  private readonly client: MqttClient;
  private readonly topics;

  constructor(
    url: string,
    private readonly devId: string,
    private readonly key: string,
    handlers: MqttHandlers,
    private readonly log: SimLog,
  ) {
    this.topics = {
      telemetry: MQTT_TOPICS.telemetry(devId),
      status: MQTT_TOPICS.status(devId),
      config: MQTT_TOPICS.config(devId),
    };
    const will: DeviceStatus = { key, state: 'offline' };
    this.client = mqtt.connect(url, {
      clientId: `ipp-sim-${devId}-${crypto.randomBytes(4).toString('hex')}`,
      clean: true,
      reconnectPeriod: 3000,
      connectTimeout: 10_000,
      will: { topic: this.topics.status, payload: Buffer.from(JSON.stringify(will)), qos: 1, retain: false },
    });
    this.client.on('connect', () => {
      this.client.subscribe(this.topics.config, { qos: 1 }, (error) => {
        if (error)
          log.throttled(`${devId}:mqtt-sub`, `${devId} MQTT subscribe to ${this.topics.config} failed: ${error.message}`);
      });
      handlers.onConnect();
    });
    this.client.on('message', (topic, payload) => {
      // An empty retained message means the instrument was removed from the console.
      if (topic !== this.topics.config || payload.length === 0) return;
      let doc: DeviceConfig;
      try {
        doc = DeviceConfigSchema.parse(JSON.parse(payload.toString('utf8')));
      } catch (error) {
        log.throttled(
          `${devId}:mqtt-config`,
          `${devId} ignored a configuration message that does not parse: ${errorText(error)}`,
        );
        return;
      }
      handlers.onConfig(doc);
    });
    this.client.on('error', (error) => log.throttled(`${devId}:mqtt-error`, `${devId} MQTT ${url}: ${error.message}`));
    this.client.on('offline', () => log.throttled(`${devId}:mqtt-offline`, `${devId} MQTT disconnected, reconnecting`));
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** QoS 1; while disconnected the client keeps the message and sends it after reconnecting. */
  telemetry(sample: TelemetrySampleInput): Promise<void> {
    return this.publish(this.topics.telemetry, { ...sample, key: this.key });
  }

  status(state: 'online' | 'offline', applied?: IppConfig): Promise<void> {
    const status: DeviceStatus = { key: this.key, state, ...(applied ? { applied_config: applied } : {}), at: Date.now() };
    return this.publish(this.topics.status, status);
  }

  /** Says `offline` (a clean disconnect does not fire the last will), then disconnects. */
  async close(applied?: IppConfig): Promise<void> {
    if (this.client.connected) {
      await Promise.race([this.status('offline', applied).catch(() => undefined), delay(CLOSE_TIMEOUT_MS)]);
      await Promise.race([this.client.endAsync(), delay(CLOSE_TIMEOUT_MS)]);
    }
    // Not connected (or a stuck close): drop the socket and stop reconnecting.
    this.client.end(true);
  }

  private publish(topic: string, message: object): Promise<void> {
    return new Promise((resolve, reject) => {
      this.client.publish(topic, JSON.stringify(message), { qos: 1 }, (error) => (error ? reject(error) : resolve()));
    });
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
