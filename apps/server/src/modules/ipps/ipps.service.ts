import crypto from 'node:crypto';
import {
  IPP_CONFIG_KEYS,
  ResultCode,
  type DeviceConfig,
  type Measured,
  type Ipp,
  type IppApplyConfigBody,
  type IppApplyConfigResult,
  type IppConfig,
  type IppConfigChange,
  type IppConfigHistoryQuery,
  type IppIndexQuery,
  pendingKeys,
  type IppSaveBody,
  type IppSaveResult,
  type IppWithKey,
  canonicalTimeZone,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import { stationTeamByDevId } from '../access/access.repository.ts';
import { requireOwned, requireOwnTeam, visibleGroup } from '../access/access.ts';
import { hashToken } from '../../security/password.ts';
import { findDeviceConfig } from '../device/device.repository.ts';
import { configDocument, parseApplied, parseStoredConfig } from '../device/device.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { localMidnight } from '../stats/buckets.ts';
import { imageTotals } from '../stats/stats.repository.ts';
import { blobUrl, thumbName } from '../../storage/blobs.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { EventBus } from '../events/event-bus.ts';
import * as history from '../device/config-history.repository.ts';
import * as repo from './ipps.repository.ts';
import { measuredFromRow } from '../../db/measured-row.ts';
import { stationNotFound } from '../access/not-found.ts';

const newDeviceKey = () => `ippk_${crypto.randomBytes(32).toString('base64url')}`;

/** Where a configuration change goes besides the database (the MQTT bridge publishes it retained). */
export interface ConfigPublisher {
  publish(config: DeviceConfig): void;
  clear(devId: string): void;
}

/** Online: telemetry within the offline threshold, and no "offline" announced by the device since. */
export function isOnline(
  row: { last_online_at: number | null; reported_offline_at: number | null },
  now: number,
  offlineMs: number,
): boolean {
  if (row.last_online_at === null || now - row.last_online_at > offlineMs) return false;
  return row.reported_offline_at === null || row.reported_offline_at < row.last_online_at;
}

export class IppsService {
  private publisher: ConfigPublisher | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    /** Where statistics days start (STATS_UTC_OFFSET): "today's images" count from that midnight. */
    private readonly dayOffsetHours: number,
    private readonly events: EventBus,
  ) {}

  usePublisher(publisher: ConfigPublisher) {
    this.publisher = publisher;
  }

  async list(actor: UserRow, query: IppIndexQuery): Promise<{ rows: Ipp[]; total: number }> {
    const filter: repo.IppFilter = { keyword: query.keyword || undefined, groupId: visibleGroup(actor, query.group_id) };
    const [total, rows] = await Promise.all([
      repo.countIpps(this.db.kysely, filter),
      repo.listIpps(this.db.kysely, filter, (query.page - 1) * query.limit, query.limit),
    ]);
    return { rows: await this.present(rows), total };
  }

  async one(actor: UserRow, id: number): Promise<Ipp> {
    const row = await this.visible(actor, id);
    return (await this.present([row]))[0] as Ipp;
  }

  async save(actor: UserRow, body: IppSaveBody): Promise<IppSaveResult> {
    requireOwnTeam(actor, body.group_id, () => new AppError(ResultCode.FORBIDDEN, 'ippOwnTeamOnly'));
    const before = body.id !== undefined ? await this.visible(actor, body.id) : null;
    const key = body.id === undefined ? newDeviceKey() : null;
    const now = this.clock();
    const configText = JSON.stringify(body.config);
    const { id, configChanged } = await this.db.kysely.transaction().execute(async (trx) => {
      if (!(await findTeamById(trx, body.group_id))) throw badParam('group_id', 'reason.unknownTeam');
      const clash = await stationTeamByDevId(trx, body.dev_id);
      // Site IDs are global (the devices' identity on the wire): the answer names nothing of the station or team
      // that holds it (issue 20), whichever team that is.
      if (clash && clash.id !== body.id) throw new AppError(ResultCode.BAD_PARAM, 'devIdTaken', {}, 'dev_id');
      const fields = {
        dev_id: body.dev_id,
        site_name: body.site_name,
        country: body.country,
        longitude: body.longitude,
        latitude: body.latitude,
        group_id: body.group_id,
        serial_number: body.serial_number,
        pixel_size_um: body.pixel_size_um === undefined ? (before?.pixel_size_um ?? null) : body.pixel_size_um,
        time_zone:
          body.time_zone === undefined ? (before?.time_zone ?? null) : body.time_zone ? canonicalTimeZone(body.time_zone) : null,
        config: configText,
        updated_at: now,
      };
      const who = { changed_by: actor.id, changed_by_name: actor.account, changed_at: now, config: configText };
      if (before !== null && body.id !== undefined) {
        // The version is read under the row's lock: two saves at once make two versions, never the same one twice.
        // Checked again under the lock: a station moved to another team meanwhile is not this caller's to change.
        const current = requireOwned(actor, await repo.lockIppConfig(trx, body.id, this.db.dialect === 'postgres'), () =>
          stationNotFound('id'),
        );
        const changed = !sameConfig(parseStoredConfig(current.config), body.config);
        const version = current.config_version + (changed ? 1 : 0);
        await repo.updateIpp(trx, body.id, { ...fields, config_version: version });
        if (changed) await history.insertConfigVersion(trx, { ipp_id: body.id, version, source: 'edit', ...who });
        return { id: body.id, configChanged: changed };
      }
      const created = await repo.insertIpp(trx, { ...fields, device_key_hash: hashToken(key ?? ''), created_at: now });
      await history.insertConfigVersion(trx, { ipp_id: created, version: 1, source: 'register', ...who });
      return { id: created, configChanged: true };
    });
    const ipp = await this.one(actor, id);
    if (before !== null && before.dev_id !== ipp.dev_id) this.publisher?.clear(before.dev_id);
    if (configChanged || before?.dev_id !== ipp.dev_id) this.publishCurrent(ipp.id);
    this.announce(ipp.id, ipp.group_id, now);
    if (before !== null && before.group_id !== ipp.group_id) this.announce(ipp.id, before.group_id, now);
    return { ipp, device_key: key };
  }

  /**
   * Sets the given settings on several instruments at once (all of the caller's team, or any for a superadmin), in one
   * transaction: each instrument whose configuration changes gets a new version in its history, tracked applied or
   * pending like any other; the others are answered unchanged. Rows are locked in id order, so two callers at once
   * cannot deadlock and each change lands as its own version.
   */
  async applyConfig(actor: UserRow, body: IppApplyConfigBody): Promise<IppApplyConfigResult> {
    const ids = [...new Set(body.ids)].sort((a, b) => a - b);
    const now = this.clock();
    const results = await this.db.kysely.transaction().execute(async (trx) => {
      const out: { row: repo.LockedIppConfig; changed: boolean; version: number; config: IppConfig }[] = [];
      for (const id of ids) {
        const locked = await repo.lockIppConfig(trx, id, this.db.dialect === 'postgres');
        const current = requireOwned(actor, locked, () => stationNotFound('ids'));
        const config: IppConfig = { ...parseStoredConfig(current.config), ...body.config };
        const configText = JSON.stringify(config);
        const changed = !sameConfig(parseStoredConfig(current.config), config);
        const version = current.config_version + (changed ? 1 : 0);
        if (changed) {
          await repo.updateIpp(trx, id, { config: configText, config_version: version, updated_at: now });
          await history.insertConfigVersion(trx, {
            ipp_id: id,
            version,
            source: 'bulk',
            config: configText,
            changed_by: actor.id,
            changed_by_name: actor.account,
            changed_at: now,
          });
        }
        out.push({ row: current, changed, version, config });
      }
      return out;
    });
    for (const { row, changed } of results) {
      if (!changed) continue;
      this.publishCurrent(row.id);
      this.announce(row.id, row.group_id, now);
    }
    return {
      rows: results.map(({ row, changed, version, config }) => ({
        id: row.id,
        dev_id: row.dev_id,
        site_name: row.site_name,
        changed,
        config_version: version,
        pending: pendingKeys(config, parseApplied(row.applied_config)),
      })),
    };
  }

  /** An instrument's configuration versions, newest first: who set what, when, and whether the device runs it. */
  async configHistory(actor: UserRow, query: IppConfigHistoryQuery): Promise<{ rows: IppConfigChange[]; total: number }> {
    const ipp = await this.visible(actor, query.id);
    const [total, page] = await Promise.all([
      history.countConfigVersions(this.db.kysely, query.id),
      history.configVersionsPage(this.db.kysely, query.id, (query.page - 1) * query.limit, query.limit),
    ]);
    const rows = page.slice(0, query.limit).map((row, index) => {
      const config = parseStoredConfig(row.config);
      const older = page[index + 1];
      const previous = older && older.version === row.version - 1 ? parseStoredConfig(older.config) : null;
      const applied = row.applied_at === null ? null : Number(row.applied_at);
      return {
        version: row.version,
        source: row.source as IppConfigChange['source'],
        changed_by_name: row.changed_by_name,
        changed_at: Number(row.changed_at),
        state: applied !== null ? 'applied' : row.version === ipp.config_version ? 'pending' : 'superseded',
        applied_at: applied,
        changes: IPP_CONFIG_KEYS.filter((key) => previous === null || previous[key] !== config[key]).map((key) => ({
          key,
          from: previous === null ? null : previous[key],
          to: config[key],
        })),
        config,
      } satisfies IppConfigChange;
    });
    return { rows, total };
  }

  /** Pages showing this station ask for it again (live events). */
  private announce(ippId: number, groupId: number, at: number) {
    this.events.publish({ group_id: groupId, event: { type: 'ipp', ipp_id: ippId, reasons: ['config'], at } });
  }

  /**
   * Sends the device the configuration stored now, read after the commit: of two changes at once, whichever publishes
   * last sends the newest version (and the bridge drops an older one that arrives late), never a version number with
   * another change's settings.
   */
  private publishCurrent(ippId: number) {
    const publisher = this.publisher;
    if (!publisher) return;
    findDeviceConfig(this.db.kysely, ippId).then(
      (row) => publisher.publish(configDocument(row)),
      () => undefined, // Removed meanwhile: nothing to send.
    );
  }

  /** Refused while the instrument still has images: removing it must never silently delete data. */
  async remove(actor: UserRow, id: number) {
    const row = await this.visible(actor, id);
    const images = await repo.countRoisOf(this.db.kysely, id);
    if (images > 0) throw new AppError(ResultCode.FAILED, 'ippHasImages', { count: images });
    await repo.deleteIpp(this.db.kysely, id);
    this.publisher?.clear(row.dev_id);
  }

  /** A new device key; the old one stops working at once. */
  async rotateKey(actor: UserRow, id: number): Promise<IppWithKey> {
    await this.visible(actor, id);
    const key = newDeviceKey();
    await repo.updateIpp(this.db.kysely, id, { device_key_hash: hashToken(key), updated_at: this.clock() });
    return { ipp: await this.one(actor, id), device_key: key };
  }

  private async visible(actor: UserRow, id: number) {
    return requireOwned(actor, await repo.findIpp(this.db.kysely, id), () => stationNotFound('id'));
  }

  private async present(rows: repo.IppSelection[]): Promise<Ipp[]> {
    const offlineMs = (await this.settings.get()).offline_minutes * 60_000;
    const now = this.clock();
    const ids = rows.map((r) => r.id);
    const [totals, latest] = await Promise.all([
      imageTotals(this.db.kysely, ids, localMidnight(now, this.dayOffsetHours * 60)),
      Promise.all(ids.map((id) => repo.latestRoiOf(this.db.kysely, id))),
    ]);
    return rows.map((row, index) => {
      const config = parseStoredConfig(row.config);
      const applied = parseApplied(row.applied_config);
      const counts = totals.get(row.id) ?? { total: 0, since: 0 };
      const newest = latest[index];
      return {
        id: row.id,
        dev_id: row.dev_id,
        site_name: row.site_name,
        country: row.country,
        longitude: row.longitude,
        latitude: row.latitude,
        group_id: row.group_id,
        group_name: row.group_name ?? null,
        serial_number: row.serial_number,
        pixel_size_um: row.pixel_size_um,
        time_zone: row.time_zone,
        online: isOnline(row, now, offlineMs),
        last_online_at: row.last_online_at,
        wiper_status: row.wiper_status,
        config,
        config_version: row.config_version,
        applied_config: applied,
        pending: pendingKeys(config, applied),
        measured: row.latest_telemetry === null ? null : measuredFromRow(JSON.parse(row.latest_telemetry) as Measured),
        online_hours: Math.round((row.online_ms / 3_600_000) * 100) / 100,
        today_images: counts.since,
        total_images: counts.total,
        last_image_at: row.last_image_at === null ? null : Number(row.last_image_at),
        latest_roi: newest ? { id: newest.id, thumb_url: blobUrl(thumbName(newest.sha256)) } : null,
        created_at: row.created_at,
      };
    });
  }
}

/** Two configurations with the same value for every setting (key order and JSON text aside). */
const sameConfig = (a: IppConfig, b: IppConfig) => pendingKeys(a, b).length === 0;
