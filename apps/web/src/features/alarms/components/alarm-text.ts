import type { Alarm, AlarmKind, AlarmRule } from '@ipp/contracts';
import type { TFunction } from 'i18next';

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
};

const num = (value: number) => String(Math.round(value * 10) / 10);

/** Whole hours of a biology rule's window (the server counts whole hours, as here). */
const hoursOf = (minutes: number | null) => Math.max(1, Math.ceil((minutes ?? 60) / 60));

/**
 * What a rule (or the rule of an alarm) watches, in words: "Humidity above 80 %", "Offline for 15 min or more",
 * "003 Dinoflagellate above 20 ind/L over 3 h".
 */
export function ruleText(t: TFunction, rule: Pick<AlarmRule, 'kind' | 'threshold' | 'minutes' | 'class_name'>) {
  if (rule.kind === 'class_concentration')
    return t('alarms.condition.class_concentration', {
      class: rule.class_name ?? '—',
      limit: `${num(rule.threshold ?? 0)} ${t('ecology.perLitre')}`,
      hours: hoursOf(rule.minutes),
    });
  const limit = rule.threshold ?? rule.minutes;
  return t(`alarms.condition.${rule.kind}`, { limit: limit === null ? '' : `${num(limit)} ${UNIT[rule.kind]}`.trim() });
}

/** The reading that raised an alarm (or its latest while active), with its unit; '—' for faults. */
export function valueText(t: TFunction, alarm: Pick<Alarm, 'kind' | 'value'>) {
  if (alarm.value === null || alarm.kind === 'wiper_fault') return '—';
  const unit = alarm.kind === 'class_concentration' ? t('ecology.perLitre') : UNIT[alarm.kind];
  return `${num(alarm.value)} ${unit}`.trim();
}
