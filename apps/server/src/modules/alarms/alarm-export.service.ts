import { MAX_ALARM_EXPORT_ROWS, ResultCode, stationTimeZone, type AlarmExportQuery, type Lang } from '@ipp/contracts';
import { CSV_BOM, csvRow } from '@ipp/contracts/csv';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { requireOwned, teamActedOn } from '../access/access.ts';
import { stationNotFound, teamNotFound } from '../access/not-found.ts';
import { utcIso } from '../rois/site-csv.ts';
import { findTeamById } from '../teams/teams.repository.ts';
import type { UserRow } from '../users/users.repository.ts';
import { localStamp } from './alarm-time.ts';
import * as repo from './alarm-export.repository.ts';
import { ippIdentity } from './alarms.repository.ts';

/** Rows read per query: SQLite answers each synchronously, so a large export gives the event loop back between pages. */
const PAGE_ROWS = 2000;

type Station = { dev_id: string; site_name: string; zone: string };
type Row = repo.ExportedAlarmRow & Station;

/** A station removed between reading its alarms and reading it (its alarms go with it). */
const REMOVED_STATION: Station = { dev_id: '', site_name: '', zone: 'UTC' };

const utcOrEmpty = (value: number | string | null) => (value === null ? '' : utcIso(Number(value)));

/**
 * The columns, each with its header in both languages beside its value, so a header never names another column's
 * value. Codes (severity, state, kind) and times stay the same in both languages: only the header is translated.
 */
const COLUMNS: readonly { zh: string; en: string; value: (row: Row) => unknown }[] = [
  { zh: '告警编号', en: 'alarm_id', value: (r) => r.id },
  { zh: '严重程度', en: 'severity', value: (r) => r.severity },
  { zh: '状态', en: 'state', value: (r) => r.state },
  { zh: '规则名称', en: 'rule_name', value: (r) => r.rule_name },
  { zh: '类型', en: 'kind', value: (r) => r.kind },
  { zh: '站点名称', en: 'site_name', value: (r) => r.site_name },
  { zh: '站点编号', en: 'dev_id', value: (r) => r.dev_id },
  { zh: '站点时区', en: 'time_zone', value: (r) => r.zone },
  { zh: '发生时间（UTC）', en: 'raised_at_utc', value: (r) => utcIso(Number(r.raised_at)) },
  { zh: '发生时间（站点当地）', en: 'raised_at_local', value: (r) => localStamp(Number(r.raised_at), r.zone) },
  { zh: '读数', en: 'value', value: (r) => r.value },
  { zh: '阈值', en: 'threshold', value: (r) => r.threshold },
  { zh: '确认时间（UTC）', en: 'acknowledged_at_utc', value: (r) => utcOrEmpty(r.acknowledged_at) },
  { zh: '确认人', en: 'acknowledged_by', value: (r) => r.acknowledged_by_name },
  { zh: '确认备注', en: 'ack_note', value: (r) => r.ack_note },
  { zh: '解除时间（UTC）', en: 'cleared_at_utc', value: (r) => utcOrEmpty(r.cleared_at) },
  { zh: '解除人', en: 'cleared_by', value: (r) => r.cleared_by_name },
  { zh: '解除原因', en: 'clear_reason', value: (r) => r.clear_reason },
  // SQLite answers 0/1, PostgreSQL a boolean.
  { zh: '静默中', en: 'silenced', value: (r) => Boolean(r.silenced) },
];

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * A team's alarm history as CSV (GET /alarm/export, docs/alarms.md "Exporting the history"): every alarm raised in
 * [from, to), any state, oldest first, maybe of one station; at most MAX_ALARM_EXPORT_ROWS, a longer history is refused
 * before any row is read.
 */
export class AlarmExportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async csv(actor: UserRow, query: AlarmExportQuery, lang: Lang): Promise<{ filename: string; text: string }> {
    const { group, station } = await this.scope(actor, query);
    const filter = { groupId: group, ippId: station?.id, from: query.from, to: query.to };
    const count = await repo.countRaised(this.db.kysely, filter);
    if (count > MAX_ALARM_EXPORT_ROWS)
      throw new AppError(ResultCode.BAD_PARAM, 'alarmExportTooLarge', { count, max: MAX_ALARM_EXPORT_ROWS }, 'to');
    const lines = [csvRow(COLUMNS.map((c) => c[lang])), ...(await this.rows(filter))];
    const name = station ? `alarms-${station.dev_id}` : `alarms-team${group}`;
    return {
      filename: `${name}-${day(query.from)}-${day(query.to)}.csv`,
      text: CSV_BOM + lines.map((line) => `${line}\r\n`).join(''),
    };
  }

  /**
   * The team exported and the station named, if any: the caller's own team, or the one a superadmin names or whose
   * station they name. Another team's station answers like an unknown one.
   */
  private async scope(actor: UserRow, query: AlarmExportQuery) {
    const db = this.db.kysely;
    const station =
      query.ipp_id === undefined ? null : requireOwned(actor, await ippIdentity(db, query.ipp_id), () => stationNotFound());
    const group = station && query.group_id === undefined ? station.group_id : teamActedOn(actor, query.group_id);
    if (station && station.group_id !== group) throw stationNotFound();
    if (!station && !(await findTeamById(db, group))) throw teamNotFound();
    return { group, station };
  }

  /** The CSV lines of the alarms, page by page; never more than MAX_ALARM_EXPORT_ROWS, even if more raise meanwhile. */
  private async rows(filter: repo.ExportedAlarms): Promise<string[]> {
    const now = this.clock();
    const lines: string[] = [];
    const stations = new Map<number, Station>();
    let after: repo.PageEnd | null = null;
    while (lines.length < MAX_ALARM_EXPORT_ROWS) {
      const limit = Math.min(PAGE_ROWS, MAX_ALARM_EXPORT_ROWS - lines.length);
      const page = await repo.raisedPage(this.db.kysely, filter, after, limit, now);
      const unknown = new Set(page.map((row) => row.ipp_id).filter((id) => !stations.has(id)));
      for (const s of await repo.stationsByIds(this.db.kysely, [...unknown]))
        stations.set(s.id, { dev_id: s.dev_id, site_name: s.site_name, zone: stationTimeZone(s) });
      for (const row of page) {
        const full = { ...row, ...(stations.get(row.ipp_id) ?? REMOVED_STATION) };
        lines.push(csvRow(COLUMNS.map((c) => c.value(full))));
      }
      const last = page.at(-1);
      if (!last || page.length < limit) break;
      after = { raised_at: Number(last.raised_at), id: last.id };
    }
    return lines;
  }
}
