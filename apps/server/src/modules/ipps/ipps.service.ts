import crypto from 'node:crypto';
import {
  DEFAULT_IPP_CONFIG,
  IppConfigSchema,
  ResultCode,
  type Ipp,
  type IppConfig,
  type IppIndexQuery,
  type IppSaveBody,
  type IppSaveResult,
  type IppWithKey,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError, badParam } from '../../http/app-error.ts';
import { hashToken } from '../auth/password.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import * as repo from './ipps.repository.ts';

const notFound = () => new AppError(ResultCode.BAD_PARAM, 'ippNotFound', {}, 'id');
const newDeviceKey = () => `ippk_${crypto.randomBytes(32).toString('base64url')}`;

/** The team whose instruments a caller sees: a superadmin any (or the one asked for), everyone else their own. */
export function visibleGroup(actor: UserRow, requested?: number): number | undefined {
  return actor.role === 'superadmin' ? requested : (actor.group_id ?? -1);
}

export class IppsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
  ) {}

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
    if (actor.role !== 'superadmin' && body.group_id !== actor.group_id)
      throw new AppError(ResultCode.FORBIDDEN, 'ippOwnTeamOnly');
    if (body.id !== undefined) await this.visible(actor, body.id);
    const key = body.id === undefined ? newDeviceKey() : null;
    const now = this.clock();
    const id = await this.db.kysely.transaction().execute(async (trx) => {
      if (!(await findTeamById(trx, body.group_id))) throw badParam('group_id', 'reason.unknownTeam');
      const clash = await repo.findIppIdByDevId(trx, body.dev_id);
      if (clash && clash.id !== body.id) throw badParam('dev_id', 'reason.taken');
      const fields = {
        dev_id: body.dev_id,
        site_name: body.site_name,
        country: body.country,
        longitude: body.longitude,
        latitude: body.latitude,
        group_id: body.group_id,
        serial_number: body.serial_number,
        config: JSON.stringify(body.config),
        updated_at: now,
      };
      if (body.id !== undefined) {
        await repo.updateIpp(trx, body.id, fields);
        return body.id;
      }
      return repo.insertIpp(trx, { ...fields, device_key_hash: hashToken(key ?? ''), created_at: now });
    });
    return { ipp: await this.one(actor, id), device_key: key };
  }

  async remove(actor: UserRow, id: number) {
    await this.visible(actor, id);
    await repo.deleteIpp(this.db.kysely, id);
  }

  /** A new device key; the old one stops working at once. */
  async rotateKey(actor: UserRow, id: number): Promise<IppWithKey> {
    await this.visible(actor, id);
    const key = newDeviceKey();
    await repo.updateIpp(this.db.kysely, id, { device_key_hash: hashToken(key), updated_at: this.clock() });
    return { ipp: await this.one(actor, id), device_key: key };
  }

  private async visible(actor: UserRow, id: number) {
    const row = await repo.findIpp(this.db.kysely, id);
    const group = visibleGroup(actor);
    if (!row || (group !== undefined && row.group_id !== group)) throw notFound();
    return row;
  }

  private async present(rows: repo.IppSelection[]): Promise<Ipp[]> {
    const offlineMs = (await this.settings.get()).offline_minutes * 60_000;
    const now = this.clock();
    return rows.map(({ config, ...row }) => ({
      ...row,
      group_name: row.group_name ?? null,
      config: parseConfig(config),
      online: row.last_online_at !== null && now - row.last_online_at <= offlineMs,
    }));
  }
}

/** A stored configuration missing newer keys gets their defaults. */
function parseConfig(text: string): IppConfig {
  const parsed = IppConfigSchema.partial().safeParse(JSON.parse(text));
  return { ...DEFAULT_IPP_CONFIG, ...(parsed.success ? parsed.data : {}) };
}
