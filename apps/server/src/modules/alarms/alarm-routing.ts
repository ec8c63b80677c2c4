import type { AlarmNoticeReason } from '@ipp/contracts';
import { idList } from './alarm-present.ts';
import type * as repo from './alarms.repository.ts';

/**
 * Who hears one notice (issue 40): the team's webhook or not, and by e-mail either everyone of the team who chose
 * alarm e-mail (`userIds` null) or exactly the people named (whatever their own choice: the rule's administrator
 * routed it to them).
 */
export interface NoticeRoute {
  webhook: boolean;
  userIds: readonly number[] | null;
}

/** Before routing existed, and for an alarm whose rule is gone: the webhook and everyone who chose e-mail. */
export const DEFAULT_ROUTE: NoticeRoute = { webhook: true, userIds: null };

type RoutingColumns = Pick<
  repo.AlarmRuleRow,
  'notify_webhook' | 'notify_user_ids' | 'escalate_user_ids' | 'escalate_webhook' | 'escalate_minutes'
>;

/** A notice's route by its rule: an escalation goes to the escalation's people and channel, the rest as the rule says. */
export function routeOf(rule: RoutingColumns | undefined, reason: AlarmNoticeReason): NoticeRoute {
  if (!rule) return DEFAULT_ROUTE;
  if (reason === 'escalated') return { webhook: Boolean(rule.escalate_webhook), userIds: idList(rule.escalate_user_ids) };
  return {
    webhook: Boolean(rule.notify_webhook),
    userIds: rule.notify_user_ids === null ? null : idList(rule.notify_user_ids),
  };
}

/**
 * Whether an alarm escalates now: its rule escalates, it is active (raised and told, not acknowledged: a silence that
 * held its raise holds this too), not escalated yet, and raised at least the rule's minutes ago.
 */
export function escalationDue(
  rule: Pick<RoutingColumns, 'escalate_minutes'>,
  alarm: Pick<repo.AlarmRow, 'state' | 'notified_at' | 'escalated_at' | 'raised_at'>,
  now: number,
) {
  if (rule.escalate_minutes <= 0 || alarm.state !== 'active') return false;
  if (alarm.notified_at === null || alarm.escalated_at !== null) return false;
  return now - Number(alarm.raised_at) >= rule.escalate_minutes * 60_000;
}
