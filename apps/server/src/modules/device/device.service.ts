import {
  DEFAULT_IPP_CONFIG,
  IppConfigSchema,
  MEASURED_KEYS,
  ResultCode,
  type DeviceConfig,
  type IppConfig,
  type Measured,
  type RoiUploadFields,
  type TelemetryAck,
  type TelemetrySample,
  pendingKeys,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { markVersionApplied } from './config-history.repository.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import type { DeviceContext } from '../../http/access.ts';
import { hashToken } from '../../security/password.ts';
import type { RoisService } from '../rois/rois.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { addTelemetryRollup } from '../stats/rollups.repository.ts';
import { addTrendRollup } from '../stats/trend-rollups.repository.ts';
import { reportAdditions } from '../completeness/completeness-hours.ts';
import { addCompleteness } from '../completeness/completeness.repository.ts';
import { cleansOf } from '../rois/roi-flags.ts';
import { flagCleanedRois } from '../rois/rois.repository.ts';
import * as repo from './device.repository.ts';

/** Device clocks may run a little ahead of the server's; more than this is refused as invalid. */
export const MAX_CLOCK_AHEAD_MS = 10 * 60_000;

export class DeviceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly rois: RoisService,
    private readonly dayOffsetHours: number,
    private readonly events: EventBus,
  ) {}

  private readonly reportListeners: ((ippId: number) => void)[] = [];

  /** Called after each stored report of a station (telemetry, status, image): the alarms evaluate it. */
  onReport(listener: (ippId: number) => void) {
    this.reportListeners.push(listener);
  }

  private reported(ippId: number) {
    for (const listener of this.reportListeners) listener(ippId);
  }

  private announce(device: DeviceContext, reasons: ('telemetry' | 'status' | 'applied')[]) {
    this.events.publish({ group_id: device.group_id, event: { type: 'ipp', ipp_id: device.id, reasons, at: this.clock() } });
    this.reported(device.id);
  }

  /** The instrument a device key belongs to; a missing, unknown or rotated key is refused with 1010. */
  readonly authenticate = async (key: string | undefined): Promise<DeviceContext> => {
    if (!key || key.length > 200) throw new AppError(ResultCode.TOKEN, 'deviceKeyInvalid');
    const ipp = await repo.findIppByKeyHash(this.db.kysely, hashToken(key));
    if (!ipp) throw new AppError(ResultCode.TOKEN, 'deviceKeyInvalid');
    return ipp;
  };

  /** For MQTT: the key must belong to the instrument whose topic the message came on. */
  async authenticateFor(devId: string, key: string): Promise<DeviceContext | null> {
    const ipp = await repo.findIppByDevId(this.db.kysely, devId);
    return ipp && ipp.device_key_hash === hashToken(key) ? { id: ipp.id, dev_id: ipp.dev_id, group_id: ipp.group_id } : null;
  }

  /**
   * Stores one sample and everything derived from it (latest values, online time, water sampled, hourly
   * rollup, applied configuration) in one transaction. A sample already stored (same `at`) changes nothing.
   */
  async ingestTelemetry(device: DeviceContext, sample: TelemetrySample): Promise<TelemetryAck> {
    const now = this.clock();
    if (sample.at > now + MAX_CLOCK_AHEAD_MS) throw badParam('at', 'reason.future');
    const offlineMs = (await this.settings.get()).offline_minutes * 60_000;
    const measured = measuredOf(sample);
    const ack = await this.db.kysely.transaction().execute(async (trx) => {
      const state = await repo.lockIppState(trx, device.id, this.db.dialect === 'postgres');
      const { at: _at, ...columns } = measured;
      const stored = await repo.insertTelemetry(trx, {
        ipp_id: device.id,
        at: sample.at,
        received_at: now,
        ...columns,
        applied_config: sample.applied_config ? JSON.stringify(sample.applied_config) : null,
      });
      if (!stored) return { stored: false, config_version: state.config_version };

      // The device's clock counts, but never beyond the server's: a clock running ahead cannot keep a station online.
      const seenAt = Math.min(sample.at, now);
      const newest = state.last_online_at === null || seenAt >= state.last_online_at;
      const gap = state.last_online_at === null ? null : seenAt - state.last_online_at;
      const onlineSincePrevious = gap !== null && gap > 0 && gap <= offlineMs;
      // Online just before this sample (as isOnline judges it): the run goes on; otherwise this sample begins one.
      const wasOnline =
        gap !== null &&
        gap <= offlineMs &&
        (state.reported_offline_at === null || Number(state.reported_offline_at) < Number(state.last_online_at));
      const total = sample.volume_total_l ?? null;
      const volumeL = newest ? (counterDelta(total, state.last_volume_total) ?? 0) : 0;
      await addTelemetryRollup(trx, this.dayOffsetHours, device.id, sample.at, {
        temperature_c: sample.temperature_c ?? null,
        humidity_pct: sample.humidity_pct ?? null,
        volume_l: volumeL,
      });
      await addTrendRollup(trx, this.dayOffsetHours, device.id, sample.at, measured);
      for (const clean of cleansOf(measured)) await flagCleanedRois(trx, device.id, clean);
      const rois = sample.rois_total ?? null;
      if (newest && state.last_online_at !== null) {
        const lastRois = state.last_rois_total === null ? null : Number(state.last_rois_total);
        await addCompleteness(
          trx,
          device.id,
          reportAdditions({
            from: state.last_online_at,
            to: seenAt,
            online: onlineSincePrevious,
            // Water flowed since the last report; a device with no volume sensor counts as sampling while online.
            sampling: volumeL > 0 || (sample.volume_5min_ml ?? 0) > 0 || (total === null && sample.volume_5min_ml == null),
            frameRate: runningFrameRate(state),
            images: counterDelta(rois, lastRois),
            imagesFrom: state.last_rois_at === null ? state.last_online_at : Number(state.last_rois_at),
          }),
        );
      }
      if (newest) {
        const applied = sample.applied_config && (state.applied_at === null || seenAt >= state.applied_at);
        await repo.updateIppState(trx, device.id, {
          last_online_at: seenAt,
          online_ms: state.online_ms + (onlineSincePrevious ? gap : 0),
          online_since: wasOnline && state.online_since !== null ? state.online_since : seenAt,
          latest_telemetry: JSON.stringify(measured),
          wiper_status: sample.wiper_state ?? null,
          ...(total !== null ? { last_volume_total: total } : {}),
          ...(rois !== null ? { last_rois_total: rois, last_rois_at: seenAt } : {}),
          ...(applied ? { applied_config: JSON.stringify(sample.applied_config), applied_at: seenAt } : {}),
        });
        if (applied) await recordApplied(trx, state, sample.applied_config!, seenAt);
      }
      return { stored: true, config_version: state.config_version };
    });
    if (ack.stored) this.announce(device, sample.applied_config ? ['telemetry', 'applied'] : ['telemetry']);
    return ack;
  }

  /** A status message (MQTT): the configuration applied and/or the online state the device announces. */
  async applyStatus(
    device: DeviceContext,
    status: { state?: 'online' | 'offline'; applied_config?: Partial<IppConfig>; at?: number },
  ) {
    const at = Math.min(status.at ?? this.clock(), this.clock());
    await this.db.kysely.transaction().execute(async (trx) => {
      const state = await repo.lockIppState(trx, device.id, this.db.dialect === 'postgres');
      const applied = status.applied_config && (state.applied_at === null || at >= state.applied_at);
      await repo.updateIppState(trx, device.id, {
        ...(status.state === 'offline' ? { reported_offline_at: at } : {}),
        // Back online by its own word after saying it went offline: a new online run begins now.
        ...(status.state === 'online'
          ? {
              reported_offline_at: null,
              ...(state.reported_offline_at !== null &&
              (state.last_online_at === null || Number(state.reported_offline_at) >= Number(state.last_online_at))
                ? { online_since: at }
                : {}),
            }
          : {}),
        ...(applied ? { applied_config: JSON.stringify(status.applied_config), applied_at: at } : {}),
      });
      if (applied) await recordApplied(trx, state, status.applied_config!, at);
    });
    this.announce(device, status.applied_config ? ['status', 'applied'] : ['status']);
  }

  async config(device: DeviceContext): Promise<DeviceConfig> {
    return configDocument(await repo.findDeviceConfig(this.db.kysely, device.id));
  }

  async ingestRoi(device: DeviceContext, fields: RoiUploadFields, data: Buffer) {
    if (fields.captured_at > this.clock() + MAX_CLOCK_AHEAD_MS) throw badParam('captured_at', 'reason.future');
    const result = await this.rois.ingest({
      ippId: device.id,
      capturedAt: fields.captured_at,
      labelIndex: fields.label_index,
      confidence: fields.confidence ?? null,
      sizePx: fields.size_px,
      data,
    });
    if (result.stored)
      this.events.publish({
        group_id: device.group_id,
        event: { type: 'roi', ipp_id: device.id, count: 1, last_roi_id: result.roiId, at: this.clock() },
      });
    if (result.stored) this.reported(device.id);
    return { roi_id: result.roiId, stored: result.stored, sha256: result.sha256 };
  }
}

/** A counter's increase since its last reading; a drop means it was reset (the whole reading is new). */
function counterDelta(reading: number | null, last: number | null): number | null {
  if (reading === null || last === null) return null;
  return reading >= last ? reading - last : reading;
}

/** The frame rate the device last said it runs, else the one the console set. */
function runningFrameRate(state: { config: string; applied_config: string | null }): number {
  return parseApplied(state.applied_config)?.frame_rate ?? parseStoredConfig(state.config).frame_rate;
}

/** The device runs exactly the current configuration: its version in the history is applied, dated by this report. */
async function recordApplied(
  trx: Kysely<Database>,
  state: { id: number; config: string; config_version: number },
  applied: Partial<IppConfig>,
  at: number,
) {
  if (pendingKeys(parseStoredConfig(state.config), applied).length === 0)
    await markVersionApplied(trx, state.id, state.config_version, at);
}

export function configDocument(row: {
  dev_id: string;
  config: string;
  config_version: number;
  updated_at: number;
}): DeviceConfig {
  return { dev_id: row.dev_id, version: row.config_version, config: parseStoredConfig(row.config), updated_at: row.updated_at };
}

/** The configuration a device reported running (only what it reported); null when it never reported one. */
export function parseApplied(text: string | null): Partial<IppConfig> | null {
  if (text === null) return null;
  const parsed = IppConfigSchema.partial().safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : {};
}

/** A stored configuration missing newer keys gets their defaults. */
export function parseStoredConfig(text: string): IppConfig {
  const parsed = IppConfigSchema.partial().safeParse(JSON.parse(text));
  return { ...DEFAULT_IPP_CONFIG, ...(parsed.success ? parsed.data : {}) };
}

export function measuredOf(sample: TelemetrySample): Measured {
  const out: Record<string, unknown> = { at: sample.at };
  for (const key of MEASURED_KEYS) out[key] = sample[key] ?? null;
  return out as Measured;
}
