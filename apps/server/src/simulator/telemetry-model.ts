import type { IppConfig, TelemetrySampleInput, WiperState } from '@ipp/contracts';
import { gauss, hashInts, mulberry32, unitOf } from './random.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BUCKET = 5 * 60_000;
/** The frame rate the flow figures below are given for (the default configuration). */
const REFERENCE_FPS = 3;
/** Seconds one wiper stroke takes. */
const STROKE_S = 6;

/** What an instrument accumulates between samples: counters and slowly draining storage. */
export interface DeviceState {
  index: number;
  /** Picks the device's own offsets and noise; defaults to the index. */
  seed: number;
  deployedAt: number;
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
  resume?: { volumeTotalL?: number | null; wiperCleanCount?: number | null; storageFreeGb?: number | null };
}

/** A freshly deployed instrument at `startAt`. */
export function createDeviceState(index: number, startAt: number, options: DeviceStateOptions = {}): DeviceState {
  const seed = options.seed ?? index;
  const longitude = options.longitude ?? ((index * 47) % 360) - 180;
  return {
    index,
    seed,
    deployedAt: startAt,
    at: startAt,
    volumeTotalL: options.resume?.volumeTotalL ?? 0,
    storageFreeGb: options.resume?.storageFreeGb ?? round(180 + unitOf(seed, 11) * 60, 2),
    wiperCleanCount: options.resume?.wiperCleanCount ?? 0,
    wiperLastCleanAt: null,
    solarOffsetH: longitude / 15,
  };
}

/** The state at `at` (not before the state's own time): sampled water, wiper cleans and storage used since. */
export function advance(state: DeviceState, at: number, config: ModelConfig): DeviceState {
  if (at <= state.at) return state;
  const scale = config.frame_rate / REFERENCE_FPS;
  let volumeMl = 0;
  for (let t = state.at; t < at;) {
    const bucket = Math.floor(t / BUCKET);
    const end = Math.min(at, (bucket + 1) * BUCKET);
    volumeMl += (flowMl(state, bucket) * (end - t)) / BUCKET;
    t = end;
  }
  const interval = config.wiper_interval_min * 60_000;
  const phase = wiperPhase(state, interval);
  const cleans = Math.floor((at - phase) / interval) - Math.floor((state.at - phase) / interval);
  const lastClean = Math.floor((at - phase) / interval) * interval + phase;
  return {
    ...state,
    at,
    volumeTotalL: state.volumeTotalL + (volumeMl * scale) / 1000,
    storageFreeGb: Math.max(5, state.storageFreeGb - ((at - state.at) / HOUR) * 0.02 * scale),
    wiperCleanCount: state.wiperCleanCount + cleans,
    wiperLastCleanAt: cleans > 0 ? lastClean : state.wiperLastCleanAt,
  };
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
  const sinceClean = at - (bucket * interval + phase);
  const cleaning = s.wiperLastCleanAt !== null && sinceClean < config.wiper_strokes * STROKE_S * 1000;
  const fault = unitOf(seed, 17, bucket) < 0.004;
  const wiper: WiperState = fault ? 'fault' : cleaning ? 'cleaning' : 'idle';

  const uvcDuty = (config.uvc_port_duty_pct + config.uvc_illuminator_duty_pct) / 2;
  return {
    at,
    temperature_c: round(temperature, 2),
    humidity_pct: round(humidity, 1),
    volume_5min_ml: round(flowMl(s, Math.floor(at / BUCKET)) * scale, 1),
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

const localHour = (s: DeviceState, at: number) => (((at / HOUR + s.solarOffsetH) % 24) + 24) % 24;
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
