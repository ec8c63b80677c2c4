import {
  ResultCode,
  TREND_SERIES_UNIT,
  type Alarm,
  type AlarmKind,
  type AlarmNoticeReason,
  type AlarmTestResult,
  type Lang,
  type TrendSeriesKey,
} from '@ipp/contracts';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { isMessageKey, translate } from '../../http/messages.ts';
import { SharedRuns } from '../../lib/shared-run.ts';
import type { UserRow } from '../users/users.repository.ts';
import { windowHours } from './alarm-conditions.ts';
import { stationAndUtc } from './alarm-time.ts';
import type { AlarmOutbox, OutboxSender } from './alarm-outbox.ts';
import type { AlarmNotifier, NoticeContext } from './alarms.service.ts';
import * as repo from './notices.repository.ts';

/** An SMTP server that answers nothing within this is a failed try. */
const SEND_TIMEOUT_MS = 15_000;

/** A transport from SMTP_URL: smtp[s]://[user:pass@]host[:port]; bounded waits so a dead server fails a try, not the outbox. */
export function smtpTransport(url: string): Transporter {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  return nodemailer.createTransport({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: SEND_TIMEOUT_MS,
  });
}

const num = (value: number) => String(Math.round(value * 10) / 10);

/** A user's own language, else the site's default. */
const languageOf = (language: string | null, fallback: Lang): Lang =>
  language === 'en' || language === 'zh' ? language : fallback;

/** Minutes as a reader takes them in: days and hours, hours and minutes under a day, minutes under an hour. */
export function duration(minutes: number, lang: Lang): string {
  const total = Math.max(0, Math.round(minutes));
  if (total >= 1440)
    return translate('alarmMail.duration.days', lang, { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60) });
  if (total >= 60) return translate('alarmMail.duration.hours', lang, { hours: Math.floor(total / 60), minutes: total % 60 });
  return translate('alarmMail.duration.minutes', lang, { minutes: total });
}

/** An alarm's reading with its kind's unit; a kind without one here reads as the bare number. */
export function reading(kind: AlarmKind, value: number | null, lang: Lang, series?: TrendSeriesKey | null): string {
  if (value === null) return '—';
  switch (kind) {
    case 'series': {
      const unit = series ? TREND_SERIES_UNIT[series] : '';
      return unit ? `${num(value)} ${unit}` : num(value);
    }
    case 'temperature_high':
      return `${num(value)} °C`;
    case 'humidity_high':
    case 'uvc_off_sampling':
      return `${num(value)} %`;
    case 'storage_low':
      return `${num(value)} GB`;
    case 'offline':
    case 'no_images':
      return duration(value, lang);
    case 'wiper_no_clean':
      return `${num(value)} ${translate('alarmMail.unit.intervals', lang)}`;
    case 'class_concentration':
      return `${num(value)} ${translate('alarmMail.unit.perLitre', lang)}`;
    default:
      return num(value);
  }
}

/** A page of the console, when PUBLIC_URL says where users reach it (never from a request's headers). */
const consolePage = (publicUrl: string | undefined, page: string) =>
  publicUrl ? `${publicUrl.replace(/\/+$/, '')}${page}` : null;

/** A series rule's condition: its series by name, the comparison, the limit (or band, or change and window) in its unit. */
function seriesCondition(alarm: Alarm, lang: Lang) {
  if (!alarm.series || !alarm.comparison) return alarm.rule_name;
  return translate(`alarmMail.series.${alarm.comparison}`, lang, {
    series: translate(`series.${alarm.series}`, lang),
    limit: num(alarm.threshold ?? 0),
    low: num(alarm.threshold_low ?? 0),
    unit: TREND_SERIES_UNIT[alarm.series],
    minutes: String(alarm.minutes ?? 0),
  }).trim();
}

/** An alarm as an e-mail in the recipient's language: times on the station's clock and in UTC, the console's link. */
export function alarmMail(alarm: Alarm, reason: Exclude<AlarmNoticeReason, 'acknowledged'>, lang: Lang, publicUrl?: string) {
  const station = alarm.site_name ? `${alarm.site_name} (${alarm.dev_id})` : alarm.dev_id;
  const limit = alarm.threshold ?? alarm.minutes;
  const kindKey = `alarmMail.${alarm.kind}`;
  // A kind this file has no sentence for yet (a new one) reads as its rule's name rather than failing the notice.
  const condition =
    alarm.kind === 'series'
      ? seriesCondition(alarm, lang)
      : isMessageKey(kindKey)
        ? translate(kindKey, lang, {
            limit: limit === null ? '' : num(limit),
            class: alarm.class_name ?? '—',
            hours: String(windowHours(alarm.minutes)),
          })
        : alarm.rule_name;
  const severity = translate(`alarmMail.severity.${alarm.severity}`, lang);
  const suffix = reason === 'raised' ? '' : translate(`alarmMail.${reason}`, lang);
  const subject = translate('alarmMail.subject', lang, { station, condition, severity }) + suffix;
  const lines = [
    translate('alarmMail.body', lang, {
      station,
      rule: alarm.rule_name,
      condition,
      value: reading(alarm.kind, alarm.value, lang, alarm.series),
      raised: stationAndUtc(alarm.raised_at, alarm.time_zone),
    }),
  ];
  if (reason === 'cleared' && alarm.cleared_at !== null)
    lines.push(translate('alarmMail.clearedAt', lang, { time: stationAndUtc(alarm.cleared_at, alarm.time_zone) }));
  const link = consolePage(publicUrl, `/alarms?alarm=${alarm.id}`);
  lines.push('', link ? translate('alarmMail.openAt', lang, { url: link }) : translate('alarmMail.onPage', lang));
  return { subject, text: lines.join('\n') };
}

/**
 * Alarm notices by e-mail (issue 23): each member of the station's team who chose it (every alarm of the team, or those
 * of the stations they follow) and has an address gets one message per notice, through the outbox's retries.
 */
export class EmailNotifier implements AlarmNotifier {
  constructor(
    private readonly clock: Clock,
    private readonly outbox: () => AlarmOutbox,
    private readonly transport: Transporter | null,
    private readonly from: string,
    /** PUBLIC_URL: where users reach the console; unset, e-mails carry no link. */
    private readonly publicUrl?: string,
  ) {}

  get enabled() {
    return this.transport !== null;
  }

  /**
   * One message per recipient of this alarm, queued in the alarm's transaction (none without SMTP): when it raises,
   * again while active, when it escalates and when it clears; an acknowledgement is seen in the console, not mailed.
   */
  async enqueue(trx: Kysely<Database>, alarm: Alarm, reason: AlarmNoticeReason, context: NoticeContext) {
    if (!this.transport || reason === 'acknowledged') return;
    // A rule that names people e-mails exactly them; otherwise everyone who chose this alarm.
    const named = context.route?.userIds ?? null;
    const recipients =
      named === null
        ? await repo.mailRecipients(trx, alarm.group_id, alarm.ipp_id)
        : await repo.namedRecipients(trx, alarm.group_id, named);
    for (const user of recipients) {
      const lang = languageOf(user.language, context.defaultLanguage);
      await this.outbox().add(trx, {
        group_id: alarm.group_id,
        alarm_id: alarm.id,
        channel: 'email',
        recipient: user.email,
        payload: JSON.stringify(alarmMail(alarm, reason, lang, this.publicUrl)),
      });
    }
  }

  committed() {
    if (this.transport) this.outbox().poke();
  }

  /** The outbox's sender for channel email. */
  readonly deliver: OutboxSender = async (row) => {
    if (!row.recipient) throw new Error('e-mail is not configured');
    const { subject, text } = JSON.parse(row.payload) as { subject: string; text: string };
    await this.send(row.recipient, subject, text);
  };

  /**
   * A test message to the caller's own address now, in their language, and how it went. One per user at a time: a
   * second press meanwhile gets the first one's answer.
   */
  test(actor: UserRow, defaultLanguage: Lang): Promise<AlarmTestResult> {
    if (!this.transport) throw new AppError(ResultCode.FAILED, 'emailUnavailable');
    if (!actor.email) throw new AppError(ResultCode.FAILED, 'noEmailAddress');
    const email = actor.email;
    const lang = languageOf(actor.language, defaultLanguage);
    const page = consolePage(this.publicUrl, '/alarms');
    const text =
      translate('alarmMail.testBody', lang) + (page ? `\n\n${translate('alarmMail.testLink', lang, { url: page })}` : '');
    return this.testing.run(actor.id, () =>
      this.send(email, translate('alarmMail.testSubject', lang), text).then(
        () => ({ ok: true, error: null }),
        () => ({ ok: false, error: 'send failed' }),
      ),
    );
  }

  private readonly testing = new SharedRuns<number, AlarmTestResult>();

  private async send(to: string, subject: string, text: string) {
    if (!this.transport) throw new Error('e-mail is not configured');
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.transport.sendMail({ from: this.from, to, subject, text, date: new Date(this.clock()) }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('SMTP timeout')), SEND_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
