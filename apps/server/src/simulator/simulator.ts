import type { SimOptions } from './args.ts';
import { emptyStats, SimDevice, type DeviceStats } from './device.ts';
import { SimLog, type LogSink } from './log.ts';
import { provisionInstruments, type SimInstrument } from './provision.ts';

export interface RunHooks {
  /** Where log lines go (default: stdout). */
  log?: LogSink;
  /** How long applying a configuration takes, ms (default 1–3 s, like a camera restarting its pipeline). */
  applyDelayMs?: readonly [number, number];
  /** Summary line period, ms (default one minute). */
  summaryEveryMs?: number;
  /** The devices' clock, epoch ms (default Date.now): what they stamp samples and images with. */
  clock?: () => number;
  /** Image uploads each device has in progress at once (default 1). */
  parallel?: number;
}

export interface SimulatorHandle {
  devices: readonly SimDevice[];
  /** Totals over all devices since the start. */
  totals(): DeviceStats;
  /** Stops capturing and settles once every device's kept images were acknowledged (or given up); then stop(). */
  drain(): Promise<void>;
  /** Stops every device (MQTT devices say offline) and closes connections; safe to call twice. */
  stop(): Promise<void>;
  /** Settles once stopped, by stop() or at the end of --duration. */
  done: Promise<void>;
}

function sum(devices: readonly SimDevice[]): DeviceStats {
  const total = emptyStats();
  for (const d of devices) for (const k of Object.keys(total) as (keyof DeviceStats)[]) total[k] += d.stats[k];
  return total;
}

/** A summary line; `waiting` is the images kept to send now (the backlog level, not a count over the period). */
function summary(label: string, s: DeviceStats, devices: number, waiting: number): string {
  const images = [`${s.images} images`];
  const notes = [
    s.duplicates && `${s.duplicates} already stored`,
    s.filtered && `${s.filtered} below size filter`,
    s.imageFailures && `${s.imageFailures} failed`,
    s.throttled && `${s.throttled} told to retry later`,
    waiting && `${waiting} waiting to be sent`,
  ].filter(Boolean);
  if (notes.length) images.push(`(${notes.join(', ')})`);
  const telemetry = `${s.telemetry} telemetry${s.telemetryFailures ? ` (${s.telemetryFailures} failed)` : ''}`;
  const configs = s.configs ? `, ${s.configs} config${s.configs > 1 ? 's' : ''} applied` : '';
  return `${label}: ${devices} device${devices > 1 ? 's' : ''}, ${images.join(' ')}, ${telemetry}${configs}`;
}

/** Provisions (or takes the given) instruments and runs them until stopped. Throws when provisioning fails. */
export async function runSimulator(options: SimOptions, hooks: RunHooks = {}): Promise<SimulatorHandle> {
  const log = new SimLog(hooks.log);
  let instruments: SimInstrument[];
  if (options.devices.length > 0) {
    instruments = options.devices.map((d, i) => ({
      devId: d.devId,
      key: d.key,
      index: i + 1,
      longitude: d.longitude ?? null,
      resume: d.resume,
      running: d.running,
    }));
  } else {
    log.info(
      `provisioning ${options.count} instrument${options.count > 1 ? 's' : ''} as ${options.account} on ${options.server}`,
    );
    instruments = await provisionInstruments({ ...options, log });
  }

  const devices = instruments.map(
    (instrument) =>
      new SimDevice(instrument, {
        server: options.server,
        mqttUrl: options.mqtt,
        rate: options.rate,
        telemetryIntervalMs: options.telemetryIntervalS * 1000,
        applyDelayMs: hooks.applyDelayMs ?? [1000, 3000],
        log,
        clock: hooks.clock,
        parallel: hooks.parallel,
      }),
  );
  const via = options.mqtt ? `telemetry over MQTT ${options.mqtt}` : 'telemetry over HTTP';
  log.info(
    `running ${devices.map((d) => d.devId).join(', ')}: ${options.rate} images/s each at 3 fps, ${via} every ${options.telemetryIntervalS} s` +
      (options.durationS ? `, for ${options.durationS} s` : ''),
  );
  for (const d of devices) d.start();

  let last = emptyStats();
  const summaryTimer = setInterval(() => {
    const now = sum(devices);
    const delta = emptyStats();
    for (const k of Object.keys(delta) as (keyof DeviceStats)[]) delta[k] = now[k] - last[k];
    last = now;
    log.info(summary(`last ${Math.round((hooks.summaryEveryMs ?? 60_000) / 1000)} s`, delta, devices.length, now.backlog));
  }, hooks.summaryEveryMs ?? 60_000);
  summaryTimer.unref();

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(summaryTimer);
      clearTimeout(durationTimer);
      await Promise.allSettled(devices.map((d) => d.stop()));
      const total = sum(devices);
      log.info(summary('stopped; in total', total, devices.length, total.backlog));
      resolveDone();
    })();
    return stopping;
  };
  const durationTimer = options.durationS ? setTimeout(() => void stop(), options.durationS * 1000) : undefined;

  const drain = async () => {
    await Promise.all(devices.map((d) => d.drain()));
  };
  return { devices, totals: () => sum(devices), drain, stop, done };
}
