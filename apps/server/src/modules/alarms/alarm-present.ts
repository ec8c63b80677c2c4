import {
  stationTimeZone,
  type Alarm,
  type AlarmKind,
  type AlarmRule,
  type AlarmSeverity,
  type NoDataAction,
  type SeriesComparison,
  type TrendSeriesKey,
} from '@ipp/contracts';
import type * as repo from './alarms.repository.ts';

/** A series rule's (or alarm's) series fields; the columns hold only values the contract allowed. */
const seriesOf = (row: { series: string | null; comparison: string | null; threshold_low: number | null }) => ({
  series: row.series as TrendSeriesKey | null,
  comparison: row.comparison as SeriesComparison | null,
  threshold_low: row.threshold_low,
});

/** A rule's list of people as stored (a JSON array the service wrote). */
export const idList = (json: string): number[] => JSON.parse(json) as number[];

/** Rules and alarms as the API answers them (and as notices carry them). */
export function presentRule(row: repo.AlarmRuleRow & { class_name: string | null }): AlarmRule {
  return {
    id: row.id,
    group_id: row.group_id,
    name: row.name,
    kind: row.kind as AlarmKind,
    threshold: row.threshold,
    minutes: row.minutes,
    class_id: row.class_id,
    class_name: row.class_name,
    ...seriesOf(row),
    ipp_id: row.ipp_id,
    enabled: Boolean(row.enabled),
    renotify_minutes: row.renotify_minutes,
    severity: row.severity as AlarmSeverity,
    for_minutes: row.for_minutes,
    clear_threshold: row.clear_threshold,
    no_data: row.no_data as NoDataAction,
    notify_webhook: Boolean(row.notify_webhook),
    notify_user_ids: row.notify_user_ids === null ? null : idList(row.notify_user_ids),
    escalate_minutes: row.escalate_minutes,
    escalate_user_ids: idList(row.escalate_user_ids),
    escalate_webhook: Boolean(row.escalate_webhook),
    updated_at: Number(row.updated_at),
  };
}

export function presentAlarm(
  row: repo.AlarmRow & {
    dev_id: string;
    site_name: string;
    time_zone: string | null;
    longitude: number | null;
    class_name: string | null;
    silenced?: unknown;
  },
): Alarm {
  const time = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: row.id,
    group_id: row.group_id,
    rule_id: row.rule_id,
    rule_name: row.rule_name,
    kind: row.kind as AlarmKind,
    severity: row.severity as AlarmSeverity,
    threshold: row.threshold,
    minutes: row.minutes,
    class_id: row.class_id,
    class_name: row.class_name,
    ...seriesOf(row),
    ipp_id: row.ipp_id,
    dev_id: row.dev_id,
    site_name: row.site_name,
    time_zone: stationTimeZone(row),
    state: row.state as Alarm['state'],
    value: row.value,
    raised_at: Number(row.raised_at),
    last_seen_at: Number(row.last_seen_at),
    acknowledged_at: time(row.acknowledged_at),
    acknowledged_by_name: row.acknowledged_by_name,
    ack_note: row.ack_note,
    cleared_at: time(row.cleared_at),
    cleared_by_name: row.cleared_by_name,
    clear_reason: row.clear_reason,
    escalated_at: time(row.escalated_at),
    // SQLite answers 0/1, PostgreSQL a boolean.
    silenced: Boolean(row.silenced),
  };
}
