import { ResultCode, type Alarm, type AlarmNoticeReason, type AlarmTestResult, type Lang } from '@ipp/contracts';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { translate } from '../../http/messages.ts';
import { SharedRuns } from '../../lib/shared-run.ts';
import type { UserRow } from '../users/users.repository.ts';
import { windowHours } from './alarm-conditions.ts';
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

/** An alarm as an e-mail in the recipient's language. */
export function alarmMail(alarm: Alarm, reason: Exclude<AlarmNoticeReason, 'acknowledged'>, lang: Lang) {
  const station = alarm.site_name ? `${alarm.site_name} (${alarm.dev_id})` : alarm.dev_id;
  const limit = alarm.threshold ?? alarm.minutes;
  const condition = translate(`alarmMail.${alarm.kind}`, lang, {
    limit: limit === null ? '' : num(limit),
    class: alarm.class_name ?? '—',
    hours: String(windowHours(alarm.minutes)),
  });
  const severity = translate(`alarmMail.severity.${alarm.severity}`, lang);
  const suffix = reason === 'raised' ? '' : translate(`alarmMail.${reason}`, lang);
  const subject = translate('alarmMail.subject', lang, { station, condition, severity }) + suffix;
  const text = translate('alarmMail.body', lang, {
    station,
    rule: alarm.rule_name,
    condition,
    value: alarm.value === null ? '—' : num(alarm.value),
    raised: new Date(alarm.raised_at).toISOString().replace('T', ' ').slice(0, 19) + ' UTC',
  });
  return { subject, text };
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
  ) {}

  get enabled() {
    return this.transport !== null;
  }

  /**
   * One message per recipient who chose this alarm, queued in the alarm's transaction (none without SMTP): when it
   * raises, again while active, and when it clears; an acknowledgement is seen in the console, not mailed.
   */
  async enqueue(trx: Kysely<Database>, alarm: Alarm, reason: AlarmNoticeReason, context: NoticeContext) {
    if (!this.transport || reason === 'acknowledged') return;
    for (const user of await repo.mailRecipients(trx, alarm.group_id, alarm.ipp_id)) {
      const lang = languageOf(user.language, context.defaultLanguage);
      await this.outbox().add(trx, {
        group_id: alarm.group_id,
        alarm_id: alarm.id,
        channel: 'email',
        recipient: user.email,
        payload: JSON.stringify(alarmMail(alarm, reason, lang)),
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
    return this.testing.run(actor.id, () =>
      this.send(email, translate('alarmMail.testSubject', lang), translate('alarmMail.testBody', lang)).then(
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
