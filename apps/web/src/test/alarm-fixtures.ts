import type { Alarm, AlarmRule, AlarmSummary } from '@ipp/contracts';

/** An active critical leak alarm of station 21001 (Asia/Shanghai) as GET /alarm/list answers it; override the rest. */
export function alarmFixture(overrides: Partial<Alarm> = {}): Alarm {
  return {
    id: 7,
    group_id: 1,
    rule_id: 3,
    rule_name: 'Leak',
    kind: 'humidity_high',
    severity: 'critical',
    threshold: 80,
    minutes: null,
    class_id: null,
    class_name: null,
    series: null,
    comparison: null,
    threshold_low: null,
    ipp_id: 2,
    dev_id: '21001',
    site_name: 'Daya Bay',
    time_zone: 'Asia/Shanghai',
    state: 'active',
    value: 91.2,
    raised_at: Date.UTC(2026, 10, 27, 1, 0),
    last_seen_at: Date.UTC(2026, 10, 27, 1, 5),
    acknowledged_at: null,
    acknowledged_by_name: null,
    ack_note: null,
    cleared_at: null,
    cleared_by_name: null,
    clear_reason: null,
    escalated_at: null,
    silenced: false,
    ...overrides,
  };
}

/** The rule of alarmFixture: internal humidity above 80 % on every station of team 1. */
export function ruleFixture(overrides: Partial<AlarmRule> = {}): AlarmRule {
  return {
    id: 3,
    group_id: 1,
    name: 'Leak',
    kind: 'humidity_high',
    threshold: 80,
    minutes: null,
    class_id: null,
    class_name: null,
    series: null,
    comparison: null,
    threshold_low: null,
    ipp_id: null,
    enabled: true,
    renotify_minutes: 60,
    severity: 'critical',
    for_minutes: 0,
    clear_threshold: null,
    no_data: 'keep',
    notify_webhook: true,
    notify_user_ids: null,
    escalate_minutes: 0,
    escalate_user_ids: [],
    escalate_webhook: false,
    updated_at: 1,
    ...overrides,
  };
}

/** GET /alarm/summary: `active` is the sum of by_severity unless told. */
export function alarmSummaryFixture(
  bySeverity: Partial<AlarmSummary['by_severity']> = {},
  rest: Partial<Omit<AlarmSummary, 'by_severity'>> = {},
): AlarmSummary {
  const by_severity = { critical: 0, major: 0, minor: 0, warning: 0, ...bySeverity };
  const active = by_severity.critical + by_severity.major + by_severity.minor + by_severity.warning;
  return { active, acknowledged: 0, pending: 0, ...rest, by_severity };
}
