import type { Alarm, AlarmKind, AlarmRule } from '@ipp/contracts';
import type { TFunction } from 'i18next';

const UNIT: Record<AlarmKind, string> = {
  offline: 'min',
  temperature_high: '°C',
  humidity_high: '%',
  storage_low: 'GB',
  wiper_fault: '',
  no_images: 'min',
  uvc_off_sampling: '%',
};

const num = (value: number) => String(Math.round(value * 10) / 10);

/** What a rule watches, in words: "Humidity above 80 %", "Offline for 15 min or more". */
export function ruleText(t: TFunction, rule: Pick<AlarmRule, 'kind' | 'threshold' | 'minutes'>) {
  const limit = rule.threshold ?? rule.minutes;
  return t(`alarms.condition.${rule.kind}`, { limit: limit === null ? '' : `${num(limit)} ${UNIT[rule.kind]}`.trim() });
}

/** The reading that raised an alarm (or its latest while active), with its unit; '—' for faults. */
export function valueText(alarm: Pick<Alarm, 'kind' | 'value'>) {
  if (alarm.value === null || alarm.kind === 'wiper_fault') return '—';
  return `${num(alarm.value)} ${UNIT[alarm.kind]}`.trim();
}
