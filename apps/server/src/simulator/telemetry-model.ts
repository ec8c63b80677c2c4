import type { IppConfig, Measured, TelemetrySampleInput, WiperState } from '@ipp/contracts';
import { gauss, hashInts, mulberry32, unitOf } from '../lib/random.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BUCKET = 5 * 60_000;
/** The frame rate the flow figures below are given for (the default configuration). */
const REFERENCE_FPS = 3;
/** Seconds one wiper stroke takes. */
const STROKE_S = 6;
/**
 * An instrument whose last reading is at most this old when it resumes was running all along (the console, not
 * the instrument, restarted): it carries on from that reading as if it had never stopped. An older reading means the
 * instrument itself was off meanwhile: it keeps its counters and starts sampling again now.
 */
export const RESUME_CONTINUOUS_MS = 10 * 60_000;

/**
 * The seed of an instrument's offsets and noise, from its site ID alone: the demo history and the live simulator
 * of the same station draw the same baseline, daily cycle and wiper schedule, whatever order they list stations in.
 */
export const deviceSeed = (devId: string): number => hashInts(...[...devId].map((c) => c.codePointAt(0) ?? 0));

/** What an instrument accumulates between samples: counters and slowly draining storage. */
export interface DeviceState {
  index: number;
  /** Picks the device's own offsets and noise; defaults to the index. */
  seed: number;
  /** Since when the instrument has been sampling without a break (the 5-minute volume counts nothing before). */
  runningSince: number;
  /** The time this state describes. */
  at: number;
  volumeTotalL: number;
  storageFreeGb: number;
  wiperCleanCount: number;
  wiperLastCleanAt: number | null;
  /** Local solar time = UTC + this many hours (from the station's longitude): daily cycles follow the sun. */
  solarOffsetH: number;
}

/** The configuration values the model reads (the applied configuration of the device). */
export type ModelConfig = Pick<
  IppConfig,
  | 'frame_rate'
  | 'wiper_interval_min'
  | 'wiper_strokes'
  | 'uvc_port_frequency_hz'
  | 'uvc_port_duty_pct'
  | 'uvc_illuminator_frequency_hz'
  | 'uvc_illuminator_duty_pct'
>;

export interface DeviceStateOptions {
  seed?: number;
  longitude?: number | null;
  /** Continue the counters of an instrument that already reported (otherwise a fresh deployment). */
  resume?: Resume;
}

/** What an instrument remembers across a restart: its last reading's time, counters and last clean. */
export interface Resume {
  /** The time of that reading (epoch ms). */
  at?: number | null;
  volumeTotalL?: number | null;
  wiperCleanCount?: number | null;
  wiperLastCleanAt?: number | null;
  storageFreeGb?: number | null;
}

/** The resume point of an instrument from its latest stored reading (none when it never reported). */
export function resumeFrom(
  measured:
    | { [K in 'at' | 'volume_total_l' | 'wiper_clean_count' | 'wiper_last_clean_at' | 'storage_gb']?: Measured[K] | null }
    | null
    | undefined,
): Resume | undefined {
  if (!measured) return undefined;
  return {
    at: measured.at ?? null,
    volumeTotalL: measured.volume_total_l ?? null,
    wiperCleanCount: measured.wiper_clean_count ?? null,
    wiperLastCleanAt: measured.wiper_last_clean_at ?? null,
    storageFreeGb: measured.storage_gb ?? null,
  };
}

/**
 * The instrument at `startAt`: freshly deployed, or resuming from its last reading. A recent reading (within
 * RESUME_CONTINUOUS_MS) means it never stopped: the state starts at that reading, so the next sample counts the water
 * and cleans since then. Counters and the last clean time are kept either way; none of them moves backwards.
 */
export function createDeviceState(index: number, startAt: number, options: DeviceStateOptions = {}): DeviceState {
  const seed = options.seed ?? index;
  const longitude = options.longitude ?? ((index * 47) % 360) - 180;
  const resume = options.resume;
  const resumeAt = resume?.at ?? null;
  const continuous = resumeAt !== null && resumeAt <= startAt && startAt - resumeAt <= RESUME_CONTINUOUS_MS;
  const at = continuous ? resumeAt : startAt;
  return {
    index,
    seed,
    // A continuing instrument was sampling before its last reading too.
    runningSince: continuous ? at - BUCKET : startAt,
    at,
    volumeTotalL: resume?.volumeTotalL ?? 0,
    storageFreeGb: resume?.storageFreeGb ?? round(180 + unitOf(seed, 11) * 60, 2),
    wiperCleanCount: resume?.wiperCleanCount ?? 0,
    wiperLastCleanAt: resume?.wiperLastCleanAt ?? null,
    solarOffsetH: longitude / 15,
  };
}

/** The state at `at` (not before the state's own time): sampled water, wiper cleans and storage used since. */
export function advance(state: DeviceState, at: number, config: ModelConfig): DeviceState {
  if (at <= state.at) return state;
  const scale = config.frame_rate / REFERENCE_FPS;
  const volumeMl = sampledMl(state, state.at, at, scale);
  // Cleans are scheduled at phase + k × interval; one whose stroke faulted did not clean (the wiper reports a fault
  // until the next one), so it neither counts nor becomes the last clean.
  const interval = config.wiper_interval_min * 60_000;
  const phase = wiperPhase(state, interval);
  let cleans = 0;
  let lastClean = state.wiperLastCleanAt;
  for (let k = Math.floor((state.at - phase) / interval) + 1; k <= Math.floor((at - phase) / interval); k++) {
    if (wiperFaulted(state, k)) continue;
    cleans++;
    lastClean = k * interval + phase;
  }
  return {
    ...state,
    at,
    volumeTotalL: state.volumeTotalL + volumeMl / 1000,
    storageFreeGb: Math.max(5, state.storageFreeGb - ((at - state.at) / HOUR) * 0.02 * scale),
    wiperCleanCount: state.wiperCleanCount + cleans,
    // Never earlier than the clean the instrument remembered.
    wiperLastCleanAt:
      lastClean === null || state.wiperLastCleanAt === null ? lastClean : Math.max(lastClean, state.wiperLastCleanAt),
  };
}

/** Water imaged in (from, to] at the given frame-rate scale, mL: what the total grows by over that time. */
function sampledMl(state: DeviceState, from: number, to: number, scale: number): number {
  let volumeMl = 0;
  for (let t = from; t < to;) {
    const bucket = Math.floor(t / BUCKET);
    const end = Math.min(to, (bucket + 1) * BUCKET);
    volumeMl += (flowMl(state, bucket) * (end - t)) / BUCKET;
    t = end;
  }
  return volumeMl * scale;
}

/** Every reading a simulated instrument has a sensor for (the device adds `applied_config`). */
export interface SimulatedTelemetry extends TelemetrySampleInput {
  at: number;
  temperature_c: number;
  humidity_pct: number;
  volume_5min_ml: number;
  volume_total_l: number;
  ram_mb: number;
  storage_gb: number;
  cpu_temp_c: number;
  gpu_temp_c: number;
  wiper_state: WiperState;
  wiper_clean_count: number;
  wiper_last_clean_at: number | null;
  uvc_port_frequency_hz: number;
  uvc_port_duty_pct: number;
  uvc_illuminator_frequency_hz: number;
  uvc_illuminator_duty_pct: number;
  uvc_voltage_v: number;
  uvc_current_a: number;
  lp_current_a: number;
  lp_voltage_v: number;
  lp_temperature_c: number;
  cb_current_a: number;
  cb_voltage_v: number;
}

/**
 * One telemetry sample at `at` (epoch ms, integer): deterministic for (state, at, config). The state is advanced
 * to `at` here without being changed; keep the result of `advance` between samples so counters keep growing.
 */
export function sampleTelemetry(
  device: { index: number; state: DeviceState },
  at: number,
  config: ModelConfig,
): SimulatedTelemetry {
  const s = advance(device.state, at, config);
  const seed = s.seed;
  const scale = config.frame_rate / REFERENCE_FPS;
  const noise = (channel: number, sd: number) => gauss(mulberry32(hashInts(seed, channel, Math.floor(at / 1000)))) * sd;

  const temperature = internalTemperature(s, at, config.frame_rate) + noise(1, 0.12);
  const humidity = clamp(
    45 - 1.8 * (temperature - 18) + 3 * Math.sin((2 * Math.PI * at) / (3.7 * DAY) + seed) + noise(2, 0.4),
    30,
    60,
  );
  const cpu = temperature + 22 + 4 * scale + noise(3, 0.6);

  const interval = config.wiper_interval_min * 60_000;
  const phase = wiperPhase(s, interval);
  const bucket = Math.floor((at - phase) / interval);
  // Cleaning while the strokes of the last clean last; a fault holds from the failed clean until the next one.
  const cleaning = s.wiperLastCleanAt !== null && at - s.wiperLastCleanAt < config.wiper_strokes * STROKE_S * 1000;
  const fault = bucket * interval + phase > s.runningSince && wiperFaulted(s, bucket);
  const wiper: WiperState = fault ? 'fault' : cleaning ? 'cleaning' : 'idle';

  const uvcDuty = (config.uvc_port_duty_pct + config.uvc_illuminator_duty_pct) / 2;
  return {
    at,
    temperature_c: round(temperature, 2),
    humidity_pct: round(humidity, 1),
    // The water sampled in the 5 minutes before `at` (protocol): exactly what the total grew by over that time.
    volume_5min_ml: round(sampledMl(s, Math.max(s.runningSince, at - BUCKET), at, scale), 1),
    volume_total_l: round(s.volumeTotalL, 3),
    ram_mb: Math.round(2600 + 180 * scale + 120 * Math.sin((2 * Math.PI * at) / (7 * HOUR) + seed) + noise(4, 25)),
    storage_gb: round(s.storageFreeGb, 2),
    cpu_temp_c: round(cpu, 1),
    gpu_temp_c: round(cpu + 2.5 + 2 * scale + noise(5, 0.5), 1),
    wiper_state: wiper,
    wiper_clean_count: s.wiperCleanCount,
    wiper_last_clean_at: s.wiperLastCleanAt,
    uvc_port_frequency_hz: config.uvc_port_frequency_hz,
    uvc_port_duty_pct: config.uvc_port_duty_pct,
    uvc_illuminator_frequency_hz: config.uvc_illuminator_frequency_hz,
    uvc_illuminator_duty_pct: config.uvc_illuminator_duty_pct,
    uvc_voltage_v: round(12 + noise(6, 0.04), 2),
    uvc_current_a: round(Math.max(0, 0.02 + 0.006 * uvcDuty + noise(7, 0.004)), 3),
    lp_current_a: round(0.18 + noise(8, 0.008), 3),
    lp_voltage_v: round(12.1 + noise(9, 0.03), 2),
    lp_temperature_c: round(temperature + 3 + noise(10, 0.3), 1),
    cb_current_a: round(1.2 + 0.15 * config.frame_rate + (cleaning ? 0.4 : 0) + noise(12, 0.03), 3),
    cb_voltage_v: round(11.95 + noise(13, 0.04), 2),
  };
}

/** Internal temperature before sensor noise: device offset, daily sine peaking mid-afternoon, weather drift. */
function internalTemperature(s: DeviceState, at: number, frameRate: number): number {
  const mean = 18 + (unitOf(s.seed, 1) - 0.5) * 1.5;
  const amplitude = 2.2 + unitOf(s.seed, 2) * 1.3;
  const hour = localHour(s, at);
  const drift = 0.5 * Math.sin((2 * Math.PI * at) / (5.3 * DAY) + s.seed);
  const load = 0.3 * (frameRate - REFERENCE_FPS);
  return clamp(mean + amplitude * Math.sin((2 * Math.PI * (hour - 9)) / 24) + drift + load, 14, 22);
}

/** Water imaged in one 5-minute bucket at the reference frame rate, mL: a daily cycle, tides and turbulence. */
function flowMl(s: DeviceState, bucket: number): number {
  const t = (bucket + 0.5) * BUCKET;
  const daily = 110 * Math.sin((2 * Math.PI * (localHour(s, t) - 4)) / 24);
  const tide = 40 * Math.sin((2 * Math.PI * t) / (12.42 * HOUR) + s.seed);
  const turbulence = (unitOf(s.seed, 31, bucket) - 0.5) * 40;
  return clamp(425 + daily + tide + turbulence, 250, 600);
}

/** Cleans happen at fixed multiples of the interval, shifted per device so stations do not clean in step. */
const wiperPhase = (s: DeviceState, interval: number) => Math.floor(unitOf(s.seed, 41) * interval);

/** Whether the k-th scheduled clean faulted (rarely). */
const wiperFaulted = (s: DeviceState, k: number) => unitOf(s.seed, 17, k) < 0.004;

const localHour = (s: DeviceState, at: number) => (((at / HOUR + s.solarOffsetH) % 24) + 24) % 24;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
