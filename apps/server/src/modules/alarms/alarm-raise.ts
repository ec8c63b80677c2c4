import type { NoDataAction } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import * as repo from './alarms.repository.ts';

/** What no data means for a rule: firing (raise), ended (clear), or nothing shows (keep). */
export const noDataFiring = (action: NoDataAction): boolean | null =>
  action === 'raise' ? true : action === 'clear' ? false : null;

/** Opens an alarm of the rule on the station: active, or pending while its duration runs (raised_at = since when). */
export async function raise(
  trx: Kysely<Database>,
  rule: repo.AlarmRuleRow,
  station: repo.StationForAlarms,
  value: number | null,
  now: number,
  pending: boolean,
  held: boolean,
) {
  const values = {
    group_id: station.group_id,
    rule_id: rule.id,
    rule_name: rule.name,
    kind: rule.kind,
    severity: rule.severity,
    threshold: rule.threshold,
    minutes: rule.minutes,
    class_id: rule.class_id,
    series: rule.series,
    comparison: rule.comparison,
    threshold_low: rule.threshold_low,
    ipp_id: station.id,
    state: pending ? 'pending' : 'active',
    value,
    raised_at: now,
    last_seen_at: now,
    notified_at: pending || held ? null : now,
  };
  const id = await repo.raiseAlarm(trx, values);
  return id === null
    ? null
    : {
        ...values,
        id,
        acknowledged_at: null,
        acknowledged_by: null,
        acknowledged_by_name: null,
        ack_note: null,
        cleared_at: null,
        cleared_by_name: null,
        clear_reason: null,
        escalated_at: null,
      };
}
