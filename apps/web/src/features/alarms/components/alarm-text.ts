import { limitDirection, type Alarm, type AlarmKind, type AlarmRule, type WebhookFailureKind } from '@ipp/contracts';
import { MEASURED_FIELDS } from '@/lib/measured';
import type { TFunction } from 'i18next';

/** The unit of each kind's limit and reading; '' where there is none, and durations (minutes) are written by durationText. */
const UNIT: Record<AlarmKind, string> = {
  offline: 'min',
  temperature_high: '°C',
  humidity_high: '%',
  storage_low: 'GB',
  wiper_fault: '',
  wiper_no_clean: '',
  no_images: 'min',
  uvc_off_sampling: '%',
  class_concentration: '',
  series: '',
};

const num = (value: number) => String(Math.round(value * 10) / 10);

/** Kinds whose limit and reading are minutes. */
const DURATION_KINDS: readonly AlarmKind[] = ['offline', 'no_images'];

/**
 * Minutes as a person reads a duration, in the interface language: "45 min", "3 h 5 min", "28 d 14 h" ("28 天 14 小时"),
 * never "41193 min" (issue 37). Beyond a day the minutes are left out.
 */
export function durationText(t: TFunction, minutes: number) {
  const total = Math.max(0, Math.round(minutes));
  const d = Math.floor(total / 1440);
  const h = Math.floor((total % 1440) / 60);
  const m = total % 60;
  if (d > 0) return h > 0 ? t('alarms.duration.daysHours', { d, h }) : t('alarms.duration.days', { d });
  if (h > 0) return m > 0 ? t('alarms.duration.hoursMin', { h, m }) : t('alarms.duration.hours', { h });
  return t('alarms.duration.min', { n: m });
}

const FAILURE_KEY: Record<WebhookFailureKind, string> = {
  timeout: 'timeout',
  refused: 'refused',
  'unknown host': 'unknownHost',
  'TLS error': 'tls',
  'network error': 'network',
  'HTTP error': 'http',
  'address not allowed': 'notAllowed',
  'webhook removed': 'removed',
};

/** A failed webhook try's class (the server tells only that) in the interface language; an unknown class as sent. */
export const webhookFailureText = (t: TFunction, error: string | null) =>
  error && error in FAILURE_KEY ? t(`alarms.webhook.failures.${FAILURE_KEY[error as WebhookFailureKind]}`) : (error ?? '');

/** A series rule's own fields; absent on what is not one. */
type SeriesPart = Partial<Pick<AlarmRule, 'series' | 'comparison' | 'threshold_low'>>;

/** A series' unit in the interface language ('' for a count). */
function seriesUnit(t: TFunction, series: AlarmRule['series'] | undefined) {
  const unit = series ? MEASURED_FIELDS[series].unit : undefined;
  return unit ? t(`measured.unit.${unit}`) : '';
}

/** A limit or reading of a rule's kind (or series) with its unit. */
function withUnit(t: TFunction, rule: Pick<AlarmRule, 'kind'> & SeriesPart, value: number) {
  const unit =
    rule.kind === 'class_concentration'
      ? t('ecology.perLitre')
      : rule.kind === 'series'
        ? seriesUnit(t, rule.series)
        : UNIT[rule.kind];
  return `${num(value)} ${unit}`.trim();
}

/** Whole hours of a biology rule's window (the server counts whole hours, as here). */
const hoursOf = (minutes: number | null) => Math.max(1, Math.ceil((minutes ?? 60) / 60));

/**
 * What a rule (or the rule of an alarm) watches, in words: "Humidity above 80 %", "Offline for 15 min or more",
 * "003 Dinoflagellate above 20 ind/L over 3 h".
 */
export function ruleText(t: TFunction, rule: Pick<AlarmRule, 'kind' | 'threshold' | 'minutes' | 'class_name'> & SeriesPart) {
  if (rule.kind === 'series')
    return t(`alarms.condition.series.${rule.comparison ?? 'above'}`, {
      series: rule.series ? t(`measured.label.${rule.series}`) : '—',
      limit: withUnit(t, rule, rule.threshold ?? 0),
      low: num(rule.threshold_low ?? 0),
      minutes: durationText(t, rule.minutes ?? 0),
    });
  if (rule.kind === 'class_concentration')
    return t('alarms.condition.class_concentration', {
      class: rule.class_name ?? '—',
      limit: `${num(rule.threshold ?? 0)} ${t('ecology.perLitre')}`,
      hours: hoursOf(rule.minutes),
    });
  const limit = rule.threshold ?? rule.minutes;
  if (limit !== null && DURATION_KINDS.includes(rule.kind))
    return t(`alarms.condition.${rule.kind}`, { limit: durationText(t, limit) });
  return t(`alarms.condition.${rule.kind}`, { limit: limit === null ? '' : `${num(limit)} ${UNIT[rule.kind]}`.trim() });
}

/**
 * What a rule adds to its condition (issue 40), in words: "after 10 min", "clears at 75 % or under", "no data: raise the
 * alarm"; nothing for what is the default (at once, at the limit, keep).
 */
export function ruleDetails(
  t: TFunction,
  rule: Pick<AlarmRule, 'kind' | 'for_minutes' | 'clear_threshold' | 'no_data'> &
    SeriesPart &
    Partial<Pick<AlarmRule, 'notify_webhook' | 'notify_user_ids' | 'escalate_minutes'>>,
): string[] {
  const details: string[] = [];
  if (rule.for_minutes > 0) details.push(t('alarms.details.for', { duration: durationText(t, rule.for_minutes) }));
  const direction = limitDirection(rule);
  if (rule.clear_threshold !== null && direction)
    details.push(t(`alarms.details.clearsAt.${direction}`, { limit: withUnit(t, rule, rule.clear_threshold) }));
  if (rule.no_data !== 'keep') details.push(t('alarms.details.noData', { action: t(`alarms.noDataAction.${rule.no_data}`) }));
  if (rule.notify_user_ids) details.push(t('alarms.routing.peopleCount', { count: rule.notify_user_ids.length }));
  if (rule.notify_webhook === false) details.push(t('alarms.routing.noWebhook'));
  if (rule.escalate_minutes) details.push(t('alarms.routing.escalates', { duration: durationText(t, rule.escalate_minutes) }));
  return details;
}

/** The reading that raised an alarm (or its latest while active), with its unit; '—' for faults, "no data" without one. */
export function valueText(t: TFunction, alarm: Pick<Alarm, 'kind' | 'value'> & SeriesPart) {
  if (alarm.kind === 'wiper_fault') return '—';
  if (alarm.value === null) return t('alarms.noData');
  if (DURATION_KINDS.includes(alarm.kind)) return durationText(t, alarm.value);
  return withUnit(t, alarm, alarm.value);
}
