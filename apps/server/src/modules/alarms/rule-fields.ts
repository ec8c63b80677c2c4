import { ResultCode, type AlarmKind, type AlarmRuleSave, type SeriesComparison, type TrendSeriesKey } from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import type { RuleLimits } from './alarm-conditions.ts';
import type * as repo from './alarms.repository.ts';
import * as noticeRepo from './notices.repository.ts';

/* A rule's fields as stored: what its kind uses, and its routing (issue 40). */

/** A series rule keeps its series, comparison and (for a band) floor; other kinds keep none of them. */
export function ruleSeriesFields(body: AlarmRuleSave) {
  if (body.kind !== 'series') return { series: null, comparison: null, threshold_low: null, minutes: body.minutes };
  return {
    series: body.series,
    comparison: body.comparison,
    threshold_low: body.comparison === 'outside' ? body.threshold_low : null,
    // Only a rate compares over a window.
    minutes: body.comparison === 'rate' ? body.minutes : null,
  };
}

/** A rule's routing as stored; everyone it names must be of its team (another team's people are not its to page). */
export async function ruleRoutingFields(trx: Kysely<Database>, group: number, body: AlarmRuleSave) {
  const notify = body.notify_user_ids === null ? null : [...new Set(body.notify_user_ids)].sort((a, b) => a - b);
  const escalate = [...new Set(body.escalate_user_ids)].sort((a, b) => a - b);
  const named = [...new Set([...(notify ?? []), ...escalate])];
  const members = new Set(await noticeRepo.teamMemberIds(trx, group, named));
  for (const [field, ids] of [
    ['notify_user_ids', notify ?? []],
    ['escalate_user_ids', escalate],
  ] as const)
    if (ids.some((id) => !members.has(id))) throw new AppError(ResultCode.BAD_PARAM, 'userNotFound', {}, field);
  return {
    notify_webhook: body.notify_webhook ? 1 : 0,
    notify_user_ids: notify === null ? null : JSON.stringify(notify),
    escalate_minutes: body.escalate_minutes,
    escalate_user_ids: JSON.stringify(escalate),
    escalate_webhook: body.escalate_webhook ? 1 : 0,
  };
}

/** What the conditions read of a stored rule (its columns hold only values the contract allowed). */
export const ruleLimits = (rule: repo.AlarmRuleRow): RuleLimits => ({
  kind: rule.kind as AlarmKind,
  threshold: rule.threshold,
  minutes: rule.minutes,
  class_id: rule.class_id,
  clear_threshold: rule.clear_threshold,
  series: rule.series as TrendSeriesKey | null,
  comparison: rule.comparison as SeriesComparison | null,
  threshold_low: rule.threshold_low,
});
