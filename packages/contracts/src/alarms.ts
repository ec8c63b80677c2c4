import { z } from 'zod';
import { MAX_ID } from './ids.ts';
import { PagingQuerySchema } from './paging.ts';
import { TREND_SERIES } from './trends.ts';

/**
 * Alarms (issue 23): rules a team sets on its stations' health, evaluated as reports arrive and by a periodic check for
 * silence; each rule raises at most one open alarm per station, which someone acknowledges and which clears itself
 * when the condition ends.
 */
export const ALARM_KINDS = [
  /** The station has been offline (silent past the system's offline threshold, or said so) for at least `minutes`. */
  'offline',
  /** Internal temperature above `threshold` °C. */
  'temperature_high',
  /** Internal humidity above `threshold` % (a leak). */
  'humidity_high',
  /** Free storage below `threshold` GB. */
  'storage_low',
  /** The wiper reports a fault. */
  'wiper_fault',
  /** No clean for more than `threshold` of the instrument's wiper intervals (its configured wiper_interval_min). */
  'wiper_no_clean',
  /** Online, but no image captured for at least `minutes`. */
  'no_images',
  /** Water is being sampled while the UV-C illuminator is off (duty 0 %). */
  'uvc_off_sampling',
  /**
   * Biology: the concentration of `class_id` (individuals per litre of water sampled) above `threshold` over the last
   * `minutes`, in whole hours (the hour rollups answer it; a harmful taxon blooming).
   */
  'class_concentration',
  /**
   * Any numeric telemetry series (TREND_SERIES, issue 40) against a limit, as `comparison` says: above `threshold`,
   * below it, outside the band [`threshold_low`, `threshold`], or changed by more than `threshold` (either way) within
   * the last `minutes`.
   */
  'series',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

export type AlarmParam = 'threshold' | 'minutes' | 'class_id' | 'series' | 'comparison' | 'threshold_low';

/** How a series rule compares its series with its limit (see the `series` kind). */
export const SERIES_COMPARISONS = ['above', 'below', 'outside', 'rate'] as const;
export type SeriesComparison = (typeof SERIES_COMPARISONS)[number];

/** What a series rule needs besides its series, comparison and limit. */
export const SERIES_COMPARISON_NEEDS: Record<SeriesComparison, readonly AlarmParam[]> = {
  above: [],
  below: [],
  outside: ['threshold_low'],
  rate: ['minutes'],
};

/** The window a rate-of-change rule compares over, minutes: at least one, at most a day. */
export const RATE_WINDOW_MINUTES = { min: 1, max: 1440 } as const;

/** What each kind needs: a limit, a duration, a class. */
export const ALARM_KIND_NEEDS: Record<AlarmKind, readonly AlarmParam[]> = {
  offline: ['minutes'],
  temperature_high: ['threshold'],
  humidity_high: ['threshold'],
  storage_low: ['threshold'],
  wiper_fault: [],
  wiper_no_clean: ['threshold'],
  no_images: ['minutes'],
  uvc_off_sampling: [],
  class_concentration: ['class_id', 'threshold', 'minutes'],
  series: ['series', 'comparison', 'threshold'],
};

/** A concentration window is whole hours: at least one, at most a week. */
export const CONCENTRATION_WINDOW_MINUTES = { min: 60, max: 10_080 } as const;

/**
 * How much an alarm weighs (issue 40), heaviest first: the order alarms are listed and coloured in. A new rule takes its
 * kind's default unless it names one.
 */
export const ALARM_SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

export const DEFAULT_SEVERITY: Record<AlarmKind, AlarmSeverity> = {
  offline: 'major',
  temperature_high: 'major',
  humidity_high: 'critical',
  storage_low: 'minor',
  wiper_fault: 'major',
  wiper_no_clean: 'minor',
  no_images: 'minor',
  uvc_off_sampling: 'warning',
  class_concentration: 'major',
  series: 'minor',
};

/**
 * What a rule does when its station shows nothing either way (offline, or no such reading): `keep` the alarm as it
 * is (the default, and the only behaviour before issue 40), `raise` one (no data is itself the trouble), or `clear` it.
 */
export const NO_DATA_ACTIONS = ['keep', 'raise', 'clear'] as const;
export type NoDataAction = (typeof NO_DATA_ACTIONS)[number];

/**
 * Kinds whose limit is a reading with a direction, so a separate clear level makes sense (hysteresis): `above` kinds
 * raise over the limit and clear at or under the clear level (at most the limit); `below` kinds the other way round.
 */
export const LIMIT_DIRECTION: Partial<Record<AlarmKind, 'above' | 'below'>> = {
  temperature_high: 'above',
  humidity_high: 'above',
  storage_low: 'below',
  wiper_no_clean: 'above',
  class_concentration: 'above',
};

/** What a rule's limit says: a series rule above or below its limit has a direction, a band or a rate has none. */
export function limitDirection(rule: { kind: AlarmKind; comparison?: SeriesComparison | null }) {
  if (rule.kind !== 'series') return LIMIT_DIRECTION[rule.kind];
  return rule.comparison === 'above' || rule.comparison === 'below' ? rule.comparison : undefined;
}

/** The part of a rule its limits are checked on. */
export interface RuleLimitFields {
  kind: AlarmKind;
  comparison?: SeriesComparison | null;
  threshold: number | null;
  clear_threshold: number | null;
}

/**
 * What is wrong with a rule's clear level, as a message reason, or null: none for a rule without a directed limit,
 * and never past the limit (the API and the rule form check the same).
 */
export function clearLevelProblem(rule: RuleLimitFields) {
  const { threshold, clear_threshold: clear } = rule;
  if (clear === null) return null;
  const direction = limitDirection(rule);
  if (!direction) return 'reason.noClearLevel' as const;
  if (threshold === null) return null;
  if (direction === 'above') return clear > threshold ? ('reason.clearAtMostLimit' as const) : null;
  return clear < threshold ? ('reason.clearAtLeastLimit' as const) : null;
}

/**
 * What is wrong with a series rule's band or rate, or null: a band's floor under its top, a rate's change above zero
 * over a window of RATE_WINDOW_MINUTES (the API and the rule form check the same).
 */
export function seriesLimitProblem(rule: {
  comparison: SeriesComparison | null;
  threshold: number | null;
  threshold_low: number | null;
  minutes: number | null;
}): {
  field: 'threshold_low' | 'threshold' | 'minutes';
  reason: 'reason.bandOrder' | 'reason.positive' | 'reason.rateWindow';
} | null {
  if (rule.comparison === 'outside' && rule.threshold !== null && rule.threshold_low !== null)
    return rule.threshold_low < rule.threshold ? null : { field: 'threshold_low', reason: 'reason.bandOrder' };
  if (rule.comparison !== 'rate') return null;
  if (rule.threshold !== null && rule.threshold <= 0) return { field: 'threshold', reason: 'reason.positive' };
  const window = RATE_WINDOW_MINUTES;
  if (rule.minutes !== null && (rule.minutes < window.min || rule.minutes > window.max))
    return { field: 'minutes', reason: 'reason.rateWindow' };
  return null;
}

/** The longest a condition may be required to hold before it raises, minutes (a day). */
export const MAX_FOR_MINUTES = 1440;

/** `pending`: the condition holds but not yet for the rule's duration; nobody is notified, nothing is counted as open. */
export const ALARM_STATES = ['pending', 'active', 'acknowledged', 'cleared'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** The most rules one team keeps: each is evaluated on every report of its stations. */
export const MAX_ALARM_RULES_PER_TEAM = 100;

export const AlarmRuleSchema = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  name: z.string(),
  kind: z.enum(ALARM_KINDS),
  threshold: z.number().nullable(),
  minutes: z.number().int().nullable(),
  /** The class a biology rule watches and its name; null for the others. */
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  /** A series rule's series, comparison and band floor; null for the other kinds. */
  series: z.enum(TREND_SERIES).nullable(),
  comparison: z.enum(SERIES_COMPARISONS).nullable(),
  threshold_low: z.number().nullable(),
  /** null: every station of the team. */
  ipp_id: z.number().int().nullable(),
  enabled: z.boolean(),
  /** While an alarm stays active, it is notified again after this many minutes; 0 never. */
  renotify_minutes: z.number().int(),
  severity: z.enum(ALARM_SEVERITIES),
  /** The condition must hold this many minutes before the alarm raises (pending meanwhile); 0 at once. */
  for_minutes: z.number().int(),
  /** Where an open alarm clears (LIMIT_DIRECTION kinds); null: at the limit itself. */
  clear_threshold: z.number().nullable(),
  no_data: z.enum(NO_DATA_ACTIONS),
  /** Routing (issue 40): whether the team's webhook hears this rule's alarms. */
  notify_webhook: z.boolean(),
  /** Who is e-mailed: null, everyone of the team who chose alarm e-mail; else only these people of the team. */
  notify_user_ids: z.array(z.number().int()).nullable(),
  /**
   * Escalation: an alarm still unacknowledged this many minutes after it raised is told once more, as
   * `alarm.escalated`, to `escalate_user_ids` by e-mail and to the webhook if `escalate_webhook`; 0 never.
   */
  escalate_minutes: z.number().int(),
  escalate_user_ids: z.array(z.number().int()),
  escalate_webhook: z.boolean(),
  updated_at: z.number().int(),
});
export type AlarmRule = z.infer<typeof AlarmRuleSchema>;

/** The most people one rule names to e-mail, or to escalate to. */
export const MAX_RULE_RECIPIENTS = 50;
/** The longest an alarm may wait unacknowledged before it escalates, minutes (a week). */
export const MAX_ESCALATE_MINUTES = 10_080;

/** POST /alarm/save-rule: a new rule (no id) or a change. A superadmin names the team; others save in their own. */
export const AlarmRuleSaveBodySchema = z
  .object({
    id: z.number().int().positive().max(MAX_ID).optional(),
    group_id: z.number().int().positive().max(MAX_ID).optional(),
    name: z.string().trim().min(1).max(64),
    kind: z.enum(ALARM_KINDS),
    threshold: z.number().min(-1000).max(1_000_000).nullable().default(null),
    minutes: z.number().int().min(0).max(10_080).nullable().default(null),
    class_id: z.number().int().positive().max(MAX_ID).nullable().default(null),
    series: z.enum(TREND_SERIES).nullable().default(null),
    comparison: z.enum(SERIES_COMPARISONS).nullable().default(null),
    threshold_low: z.number().min(-1000).max(1_000_000).nullable().default(null),
    ipp_id: z.number().int().positive().max(MAX_ID).nullable().default(null),
    enabled: z.boolean().default(true),
    renotify_minutes: z.number().int().min(0).max(10_080).default(60),
    /** Absent: the kind's default (DEFAULT_SEVERITY). */
    severity: z.enum(ALARM_SEVERITIES).optional(),
    for_minutes: z.number().int().min(0).max(MAX_FOR_MINUTES).default(0),
    clear_threshold: z.number().min(-1000).max(1_000_000).nullable().default(null),
    no_data: z.enum(NO_DATA_ACTIONS).default('keep'),
    notify_webhook: z.boolean().default(true),
    notify_user_ids: z.array(z.number().int().positive().max(MAX_ID)).max(MAX_RULE_RECIPIENTS).nullable().default(null),
    escalate_minutes: z.number().int().min(0).max(MAX_ESCALATE_MINUTES).default(0),
    escalate_user_ids: z.array(z.number().int().positive().max(MAX_ID)).max(MAX_RULE_RECIPIENTS).default([]),
    escalate_webhook: z.boolean().default(false),
  })
  .superRefine((body, ctx) => {
    if (body.escalate_minutes > 0 && body.escalate_user_ids.length === 0 && !body.escalate_webhook)
      ctx.addIssue({ code: 'custom', path: ['escalate_user_ids'], message: 'reason.escalateToNobody' });
    const problem = clearLevelProblem(body);
    if (problem) ctx.addIssue({ code: 'custom', path: ['clear_threshold'], message: problem });
    const series = body.kind === 'series' && body.comparison ? SERIES_COMPARISON_NEEDS[body.comparison] : [];
    for (const need of [...ALARM_KIND_NEEDS[body.kind], ...series])
      if (body[need] === null) ctx.addIssue({ code: 'custom', path: [need], message: 'reason.required' });
    const seriesProblem = body.kind === 'series' ? seriesLimitProblem(body) : null;
    if (seriesProblem) ctx.addIssue({ code: 'custom', path: [seriesProblem.field], message: seriesProblem.reason });
    const window = CONCENTRATION_WINDOW_MINUTES;
    if (body.kind === 'class_concentration' && body.minutes !== null && body.minutes < window.min)
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: 'reason.windowHour' });
    if (body.kind === 'class_concentration' && body.threshold !== null && body.threshold < 0)
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'reason.notNegative' });
  });
export type AlarmRuleSaveBody = z.input<typeof AlarmRuleSaveBodySchema>;
/** The body as the server reads it, defaults filled in. */
export type AlarmRuleSave = z.output<typeof AlarmRuleSaveBodySchema>;

export const AlarmRulesQuerySchema = z.object({
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});

export const AlarmSchema = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  rule_id: z.number().int().nullable(),
  rule_name: z.string(),
  kind: z.enum(ALARM_KINDS),
  severity: z.enum(ALARM_SEVERITIES),
  threshold: z.number().nullable(),
  minutes: z.number().int().nullable(),
  /** A biology alarm's class and its name now (null when the class was removed since). */
  class_id: z.number().int().nullable(),
  class_name: z.string().nullable(),
  /** A series alarm's series, comparison and band floor, as its rule had them when it raised. */
  series: z.enum(TREND_SERIES).nullable(),
  comparison: z.enum(SERIES_COMPARISONS).nullable(),
  threshold_low: z.number().nullable(),
  ipp_id: z.number().int(),
  dev_id: z.string(),
  site_name: z.string(),
  /** The station's clock (stationTimeZone: its zone, or its longitude's nautical zone, or UTC), for local times. */
  time_zone: z.string(),
  state: z.enum(ALARM_STATES),
  /**
   * The reading that raised it (or its latest while active): °C, %, GB, minutes, or a series' own unit (its change,
   * for a rate); null for faults and for no data.
   */
  value: z.number().nullable(),
  /** When it raised; for a pending alarm, when its condition began to hold. */
  raised_at: z.number().int(),
  last_seen_at: z.number().int(),
  acknowledged_at: z.number().int().nullable(),
  acknowledged_by_name: z.string().nullable(),
  ack_note: z.string().nullable(),
  cleared_at: z.number().int().nullable(),
  /** Who cleared it by hand and why (administrators, issue 40); null when its condition ended or its rule went. */
  cleared_by_name: z.string().nullable(),
  clear_reason: z.string().nullable(),
  /** When it was escalated, unacknowledged past its rule's escalate_minutes; null if not (yet). */
  escalated_at: z.number().int().nullable(),
  /** A silence of its team covers it now: it stays listed, its notices wait until the silence ends (issue 40). */
  silenced: z.boolean(),
});
export type Alarm = z.infer<typeof AlarmSchema>;

/**
 * GET /alarm/list. `open` = pending, active or acknowledged, heaviest severity first, then newest; the other filters
 * newest first.
 */
export const AlarmListQuerySchema = PagingQuerySchema.extend({
  state: z.enum(['open', 'all', ...ALARM_STATES]).default('open'),
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  kind: z.enum(ALARM_KINDS).optional(),
  /** One alarm by its id (a link in an e-mail opens it), if it is the caller's team's; with state=all. */
  id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type AlarmListQuery = z.infer<typeof AlarmListQuerySchema>;

/** The longest period one alarm-history export covers, and the most alarms it holds. */
export const MAX_ALARM_EXPORT_DAYS = 366;
export const MAX_ALARM_EXPORT_ROWS = 100_000;

/**
 * GET /alarm/export: a team's alarm history as CSV (UTF-8 with BOM), every alarm raised in [from, to) oldest first,
 * optionally of one station; times in UTC and in the station's local time. A superadmin names the team.
 */
export const AlarmExportQuerySchema = z
  .object({
    group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
    ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
    from: z.coerce.number().int().min(0).max(4_102_444_800_000),
    to: z.coerce.number().int().min(0).max(4_102_444_800_000),
  })
  .superRefine((q, ctx) => {
    if (q.to <= q.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'reason.endAfterStart' });
    else if (q.to - q.from > MAX_ALARM_EXPORT_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'reason.periodTooLong' });
  });
export type AlarmExportQuery = z.infer<typeof AlarmExportQuerySchema>;

export const AlarmAcknowledgeBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID),
  note: z.string().trim().max(500).default(''),
});
export type AlarmAcknowledgeBody = z.input<typeof AlarmAcknowledgeBodySchema>;

/**
 * POST /alarm/clear: an administrator of the team clears an open alarm by hand, saying why. If its condition still
 * holds, the next evaluation raises a new one (a silence is the way to stop hearing about it).
 */
export const AlarmClearBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID),
  reason: z.string().trim().min(1).max(500),
});
export type AlarmClearBody = z.input<typeof AlarmClearBodySchema>;

/** One comment of an alarm's thread (anyone of its team writes; nobody edits or removes). */
export const AlarmCommentSchema = z.object({
  id: z.number().int(),
  alarm_id: z.number().int(),
  user_name: z.string(),
  text: z.string(),
  created_at: z.number().int(),
});
export type AlarmComment = z.infer<typeof AlarmCommentSchema>;

/** The most comments one alarm keeps: a thread is a log of what was done, not a chat room. */
export const MAX_ALARM_COMMENTS = 200;

export const AlarmCommentsQuerySchema = z.object({ id: z.coerce.number().int().positive().max(MAX_ID) });
export const AlarmCommentBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID),
  text: z.string().trim().min(1).max(1000),
});
export type AlarmCommentBody = z.input<typeof AlarmCommentBodySchema>;

/** GET /alarm/summary: the header's count; `by_severity` counts the active (unacknowledged) ones. */
export const AlarmSummarySchema = z.object({
  active: z.number().int(),
  acknowledged: z.number().int(),
  pending: z.number().int(),
  by_severity: z.object({
    critical: z.number().int(),
    major: z.number().int(),
    minor: z.number().int(),
    warning: z.number().int(),
  }),
});
export type AlarmSummary = z.infer<typeof AlarmSummarySchema>;
