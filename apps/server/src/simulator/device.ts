import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_IPP_CONFIG, ResultCode, type DeviceConfig, type IppConfig, type IppConfigKey } from '@ipp/contracts';
import { ApiError, DeviceHttp, describeError, retryDelayMs, withRetry, type RoiUpload } from './http-transport.ts';
import type { SimLog } from './log.ts';
import { MqttLink } from './mqtt-transport.ts';
import type { SimInstrument } from './provision.ts';
import { between, hashInts, mulberry32, type Rng } from '../lib/random.ts';
import { pickKind, renderRoi, type RenderedRoi } from './render.ts';
import { advance, createDeviceState, deviceSeed, sampleTelemetry, type DeviceState } from './telemetry-model.ts';

export interface DeviceRuntime {
  server: string;
  mqttUrl?: string;
  /** ROI images per second at the default frame rate. */
  rate: number;
  telemetryIntervalMs: number;
  /** How long applying a configuration takes, ms (min, max). */
  applyDelayMs: readonly [number, number];
  log: SimLog;
  /** The device's clock, epoch ms (default Date.now). */
  clock?: () => number;
  /** Image uploads the device has in progress at once (default 1: one after the other, in capture order). */
  parallel?: number;
}

export interface DeviceStats {
  /** Images captured and kept to send (after the size filter). */
  captured: number;
  images: number;
  duplicates: number;
  filtered: number;
  /** Images given up: refused for good (a 4xx other than 408/429), not rendered, or pushed out of a full backlog. */
  imageFailures: number;
  /** Upload answers that said the server is saturated and when to retry (429/503 with Retry-After). */
  throttled: number;
  /** Images waiting to be sent or being sent now (a level, not a count of events). */
  backlog: number;
  telemetry: number;
  telemetryFailures: number;
  configs: number;
}

export const emptyStats = (): DeviceStats => ({
  captured: 0,
  images: 0,
  duplicates: 0,
  filtered: 0,
  imageFailures: 0,
  throttled: 0,
  backlog: 0,
  telemetry: 0,
  telemetryFailures: 0,
  configs: 0,
});

const CONFIG_KEYS = Object.keys(DEFAULT_IPP_CONFIG) as IppConfigKey[];
/** Share of images the on-device AI leaves unlabelled (sent with label 0). */
const UNLABELLED = 0.05;
/** Behind its capture schedule by more than this (the process was paused), the device skips frames. */
const MAX_BACKLOG_MS = 10_000;
/** Images an instrument keeps to send (its disk); beyond it the oldest is given up and counted as a failure. */
export const MAX_BACKLOG_IMAGES = 50_000;
/** Backoff after a failure without Retry-After (the network, a server fault): doubling from 0.5 s to 15 s. */
const BACKOFF_MS = [500, 15_000] as const;
/**
 * Failures without Retry-After in a row after which an image goes to the back of the backlog (kept, not given up), so
 * one image the server keeps failing on does not hold back every image behind it.
 */
const TRIES_BEFORE_REQUEUE = 8;

/** One simulated instrument: a telemetry loop, an ROI loop, and the configuration it runs. */
export class SimDevice {
  /** The counts; `backlog` is derived (stats). */
  private readonly counts: DeviceStats = emptyStats();
  private config: IppConfig = { ...DEFAULT_IPP_CONFIG };
  private version = 0;
  private state: DeviceState;
  private readonly abort = new AbortController();
  private readonly http: DeviceHttp;
  private mqtt: MqttLink | null = null;
  private readonly rng: Rng;
  private imageCount = 0;
  /** Images made since start (after the size filter, delivered or not): telemetry's `rois_total` counter. */
  private roisMade = 0;
  private pending: { version: number; timer: NodeJS.Timeout } | null = null;
  private fetchingConfig = false;
  private telemetryQueue: Promise<void> = Promise.resolve();
  private loops: Promise<void>[] = [];
  private reachable: boolean | null = null;
  /** Store and forward: images captured and not yet acknowledged, oldest first (those being sent are out of it). */
  private readonly backlog: RoiUpload[] = [];
  private sending = 0;
  /** Wakes the upload loops: an image was captured, the link came back, or the device stops. */
  private wake: (() => void) | null = null;
  private offline = false;
  private capturing = true;
  /** A capture being rendered now (drain waits for it: its image joins the backlog after). */
  private rendering = false;

  constructor(
    readonly instrument: SimInstrument,
    private readonly rt: DeviceRuntime,
  ) {
    this.state = initialState(instrument, this.now());
    if (instrument.running) {
      this.config = { ...instrument.running.config };
      this.version = instrument.running.version;
    }
    const seed = this.state.seed;
    this.rng = mulberry32(hashInts(seed, Date.now(), process.pid));
    this.http = new DeviceHttp(rt.server, instrument.key, this.abort.signal);
  }

  /** The device's own time. */
  private now(): number {
    return (this.rt.clock ?? Date.now)();
  }

  /** What the device did so far; `backlog` is the images kept to send plus those being sent now. */
  get stats(): DeviceStats {
    return { ...this.counts, backlog: this.backlog.length + this.sending };
  }

  get devId(): string {
    return this.instrument.devId;
  }

  /** The configuration the device runs now and its version (0 until one was applied). */
  get applied(): { version: number; config: IppConfig } {
    return { version: this.version, config: { ...this.config } };
  }

  start() {
    if (this.rt.mqttUrl) {
      this.mqtt = new MqttLink(
        this.rt.mqttUrl,
        this.devId,
        this.instrument.key,
        {
          onConfig: (doc) => this.receiveConfig(doc),
          onConnect: () => {
            this.rt.log.info(`${this.devId} online (MQTT)`);
            this.mqtt?.status('online', this.config).catch(() => undefined);
          },
        },
        this.rt.log,
      );
    } else {
      // A device asks for its configuration when it boots; later the telemetry answers say when it changed.
      void this.fetchConfig();
    }
    this.loops = [this.telemetryLoop(), this.roiLoop()];
    for (let i = 0; i < (this.rt.parallel ?? 1); i++) this.loops.push(this.uploadLoop());
  }

  /**
   * The link goes down (true) or comes back (false). Offline the device sends nothing but goes on capturing into its
   * backlog, which it sends once it is back, oldest first, as fast as the server takes it.
   */
  setOffline(offline: boolean) {
    if (this.offline === offline) return;
    this.offline = offline;
    this.rt.log.info(
      `${this.devId} ${offline ? 'link down: keeping images' : `link back: ${this.stats.backlog} images to send`}`,
    );
    if (!offline) this.poke();
  }

  get isOffline() {
    return this.offline;
  }

  /**
   * Stops capturing (telemetry goes on) and settles once every kept image was acknowledged or given up. A device whose
   * link is down keeps its images until it is back: bring it back (setOffline(false)) for the drain to end.
   */
  async drain(): Promise<void> {
    this.capturing = false;
    while ((this.rendering || this.stats.backlog > 0) && !this.signal.aborted) await this.pause(50);
  }

  private poke() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async stop() {
    this.abort.abort();
    this.poke();
    if (this.pending) clearTimeout(this.pending.timer);
    await Promise.allSettled(this.loops);
    await this.telemetryQueue;
    await this.mqtt?.close(this.config);
  }

  private get signal() {
    return this.abort.signal;
  }

  /** Waits, answering false when the device was stopped meanwhile. */
  private async pause(ms: number): Promise<boolean> {
    try {
      await sleep(Math.max(0, ms), undefined, { signal: this.signal });
      return true;
    } catch {
      return false;
    }
  }

  private async telemetryLoop() {
    do {
      this.queueTelemetry();
      await this.telemetryQueue;
    } while (await this.pause(this.rt.telemetryIntervalMs));
  }

  /** Samples go out one after the other, so counters and times only move forward. */
  private queueTelemetry() {
    this.telemetryQueue = this.telemetryQueue.then(() => this.sendTelemetry()).catch(() => undefined);
  }

  private async sendTelemetry() {
    if (this.signal.aborted || this.offline) return;
    const at = Math.max(this.now(), this.state.at + 1);
    this.state = advance(this.state, at, this.config);
    const sample = {
      ...sampleTelemetry({ index: this.instrument.index, state: this.state }, at, this.config),
      rois_total: this.roisMade,
      applied_config: { ...this.config },
    };
    if (this.mqtt) {
      // Not awaited: the client keeps QoS 1 messages while disconnected and sends them on reconnect.
      this.mqtt.telemetry(sample).then(
        () => this.counts.telemetry++,
        (error: unknown) => this.telemetryFailed(error),
      );
      return;
    }
    try {
      const ack = await withRetry(() => this.http.telemetry(sample), { signal: this.signal });
      this.counts.telemetry++;
      if (this.reachable !== true) this.rt.log.info(`${this.devId} online`);
      this.reachable = true;
      if (ack.config_version > this.version && ack.config_version !== this.pending?.version) void this.fetchConfig();
    } catch (error) {
      this.telemetryFailed(error);
    }
  }

  private telemetryFailed(error: unknown) {
    if (this.signal.aborted) return;
    this.counts.telemetryFailures++;
    this.reachable = false;
    this.rt.log.throttled(
      `${this.devId}:telemetry`,
      `${this.devId} telemetry not delivered: ${describeError(error)}${keyHint(error)}`,
    );
  }

  private async fetchConfig() {
    if (this.fetchingConfig) return;
    this.fetchingConfig = true;
    try {
      this.receiveConfig(await withRetry(() => this.http.config(), { signal: this.signal }));
    } catch (error) {
      if (!this.signal.aborted)
        this.rt.log.throttled(
          `${this.devId}:config`,
          `${this.devId} configuration fetch failed: ${describeError(error)}${keyHint(error)}`,
        );
    } finally {
      this.fetchingConfig = false;
    }
  }

  /** Takes a desired configuration; it becomes the applied one after a short, realistic delay. */
  receiveConfig(doc: DeviceConfig) {
    if (this.signal.aborted) return;
    if (doc.version === this.pending?.version) return;
    if (!this.pending && doc.version === this.version && CONFIG_KEYS.every((k) => doc.config[k] === this.config[k])) return;
    if (this.pending) clearTimeout(this.pending.timer);
    const [min, max] = this.rt.applyDelayMs;
    this.pending = { version: doc.version, timer: setTimeout(() => this.apply(doc), between(this.rng, min, max)) };
  }

  private apply(doc: DeviceConfig) {
    this.pending = null;
    const changed = CONFIG_KEYS.filter((k) => doc.config[k] !== this.config[k]);
    this.config = { ...doc.config };
    this.version = doc.version;
    this.counts.configs++;
    const shown = changed.slice(0, 4).map((k) => `${k} ${doc.config[k]}`);
    if (changed.length > 4) shown.push(`+${changed.length - 4} more`);
    this.rt.log.info(`${this.devId} applied config v${doc.version}${shown.length ? ` (${shown.join(', ')})` : ' (no change)'}`);
    // Report what now runs at once rather than at the next interval, so the console stops showing "pending".
    if (this.mqtt) this.mqtt.status('online', this.config).catch(() => undefined);
    else this.queueTelemetry();
  }

  /** Images arrive as a Poisson process at `rate` × frame_rate / 3 per second. */
  private async roiLoop() {
    let next = this.now();
    while (!this.signal.aborted) {
      const perSecond = (this.rt.rate * this.config.frame_rate) / DEFAULT_IPP_CONFIG.frame_rate;
      if (perSecond <= 0 || !this.capturing) {
        if (!(await this.pause(1000))) return;
        next = this.now();
        continue;
      }
      next += (-Math.log(1 - this.rng()) / perSecond) * 1000;
      const now = this.now();
      if (next < now - MAX_BACKLOG_MS) next = now;
      if (!(await this.pause(next - now))) return;
      if (!this.capturing) continue;
      this.rendering = true;
      try {
        await this.capture(Math.round(next));
      } finally {
        this.rendering = false;
      }
    }
  }

  /** Renders one particle and, past the size filter, keeps it to send. */
  private async capture(capturedAt: number) {
    const kind = pickKind(this.rng);
    let roi: RenderedRoi;
    try {
      roi = await renderRoi(kind, hashInts(this.state.seed, this.imageCount++, Math.floor(this.rng() * 4_294_967_296)));
    } catch (error) {
      this.counts.imageFailures++;
      this.rt.log.throttled(`${this.devId}:render`, `${this.devId} could not render a ${kind}: ${describeError(error)}`);
      return;
    }
    // The device's size filter drops small particles before they are ever sent.
    if (roi.sizePx < this.config.size_filter_px) {
      this.counts.filtered++;
      return;
    }
    this.roisMade++;
    const unlabelled = this.rng() < UNLABELLED;
    this.backlog.push({
      capturedAt,
      labelIndex: unlabelled ? 0 : roi.labelIndex,
      confidence: unlabelled ? undefined : Math.round((0.55 + 0.44 * Math.sqrt(this.rng())) * 1000) / 1000,
      sizePx: roi.sizePx,
      png: roi.png,
    });
    this.counts.captured++;
    if (this.backlog.length > MAX_BACKLOG_IMAGES) {
      this.backlog.shift();
      this.counts.imageFailures++;
      this.rt.log.throttled(`${this.devId}:full`, `${this.devId} backlog full: the oldest image was given up`);
    }
    this.poke();
  }

  /** Sends kept images, oldest first, each until it is acknowledged or refused for good. */
  private async uploadLoop() {
    while (!this.signal.aborted) {
      const upload = this.offline ? undefined : this.backlog.shift();
      if (!upload) {
        await new Promise<void>((resolve) => {
          const previous = this.wake;
          this.wake = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      this.sending++;
      try {
        await this.deliver(upload);
      } finally {
        this.sending--;
      }
    }
  }

  /**
   * One image until it is acknowledged: after a saturated server's 429/503 it waits the Retry-After it was given
   * (plus jitter), after a network failure or a server fault it backs off; a refusal for good (4xx) gives it up.
   * Stopped meanwhile, the image goes back to the head of the backlog.
   */
  private async deliver(upload: RoiUpload) {
    for (let attempt = 1; ; attempt++) {
      if (this.offline || this.signal.aborted) {
        this.backlog.unshift(upload);
        return;
      }
      try {
        const ack = await this.http.roi(upload);
        if (ack.stored) this.counts.images++;
        else this.counts.duplicates++;
        return;
      } catch (error) {
        if (this.signal.aborted) {
          this.backlog.unshift(upload);
          return;
        }
        if (!(error instanceof ApiError && error.retryable)) {
          this.counts.imageFailures++;
          this.rt.log.throttled(
            `${this.devId}:roi`,
            `${this.devId} image not delivered: ${describeError(error)}${keyHint(error)}`,
          );
          return;
        }
        if (error.throttled) this.counts.throttled++;
        else if (attempt % TRIES_BEFORE_REQUEUE === 0 && this.backlog.length > 0) {
          this.rt.log.throttled(
            `${this.devId}:requeue`,
            `${this.devId} image failed ${attempt} times (${describeError(error)}): kept, sent again after the others`,
          );
          this.backlog.push(upload);
          return;
        }
        const delay = retryDelayMs(error, Math.min(BACKOFF_MS[1], BACKOFF_MS[0] * 2 ** Math.min(attempt - 1, 10)));
        this.rt.log.throttled(
          `${this.devId}:roi-retry`,
          `${this.devId} image upload retry ${attempt} in ${(delay / 1000).toFixed(1)} s: ${describeError(error)}`,
        );
        if (!(await this.pause(delay))) {
          this.backlog.unshift(upload);
          return;
        }
      }
    }
  }
}

/**
 * The telemetry state an instrument starts with at `now`: seeded by its site ID (so a station's live readings continue
 * the demo history's), resuming its last reading's counters and last clean when it has one.
 */
export function initialState(instrument: SimInstrument, now: number): DeviceState {
  return createDeviceState(instrument.index, now, {
    seed: deviceSeed(instrument.devId),
    longitude: instrument.longitude,
    resume: instrument.resume,
  });
}

const keyHint = (error: unknown) =>
  error instanceof ApiError && error.code === ResultCode.TOKEN ? ' — the device key was refused (rotated or removed?)' : '';
