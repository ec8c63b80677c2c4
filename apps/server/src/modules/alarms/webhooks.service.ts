import crypto from 'node:crypto';
import {
  ResultCode,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type Alarm,
  type AlarmNotice,
  type AlarmNoticeReason,
  type AlarmTestResult,
  type AlarmWebhook,
  type AlarmWebhookSaveResult,
  WEBHOOK_FAILURES,
} from '@ipp/contracts';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { teamActedOn } from '../access/access.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { AlarmOutbox, OutboxSender } from './alarm-outbox.ts';
import type { AlarmNotifier, NoticeContext } from './alarms.service.ts';
import * as repo from './notices.repository.ts';
import { postWebhook, webhookUrlAllowed, WebhookFailure, type AddressPolicy } from './webhook-transport.ts';
import { teamNotFound } from '../access/not-found.ts';
import { SharedRuns } from '../../lib/shared-run.ts';

/**
 * A receiver that has not answered (connected, and sent its answer's headers) within this is a failed try. Short:
 * a receiver that never answers holds only its own team's notices (the outbox sends each receiver's in its own lane).
 */
export const WEBHOOK_TIMEOUT_MS = 5_000;

const SHOWN_ERRORS: ReadonlySet<string> = new Set(WEBHOOK_FAILURES);
/** What the team is shown of a stored failure: its class; anything else (a row from before issue 37) as a class too. */
const failureClass = (error: string) => (SHOWN_ERRORS.has(error) ? error : 'network error');

/** `v1=` HMAC-SHA256 (hex) of `<timestamp>.<body>` with the team's secret: what a receiver recomputes to trust a notice. */
export function webhookSignature(secret: string, timestamp: number, body: string) {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Alarm notices by webhook (issues 23 and 40): a team's administrators set a URL; every event of an alarm (raised, again,
 * acknowledged, cleared) goes into the outbox and is posted as signed JSON.
 */
export class WebhooksService implements AlarmNotifier {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: () => AlarmOutbox,
    private readonly policy: AddressPolicy,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {}

  async get(actor: UserRow, groupId?: number): Promise<AlarmWebhook> {
    return this.present(teamActedOn(actor, groupId));
  }

  async save(
    actor: UserRow,
    body: { group_id?: number; url: string | null; new_secret: boolean },
  ): Promise<AlarmWebhookSaveResult> {
    const group = teamActedOn(actor, body.group_id);
    // Never a receiver inside the host or its networks (issue 37); each delivery checks again at connect time.
    if (body.url !== null && !(await webhookUrlAllowed(body.url, this.policy)))
      throw new AppError(ResultCode.BAD_PARAM, 'webhookAddressNotAllowed', {}, 'url');
    const now = this.clock();
    const secret = await this.db.kysely.transaction().execute(async (trx) => {
      // Two administrators saving the first URL at once: the second finds the first's secret and keeps it.
      if (!(await repo.lockTeam(trx, group, this.db.dialect === 'postgres'))) throw teamNotFound();
      if (body.url === null) {
        await repo.removeWebhook(trx, group);
        return null;
      }
      const existing = await repo.findWebhook(trx, group);
      const secret = !existing || body.new_secret ? crypto.randomBytes(24).toString('base64url') : existing.secret;
      await repo.saveWebhook(trx, group, body.url, secret, now);
      return secret === existing?.secret ? null : secret;
    });
    return { webhook: await this.present(group), secret };
  }

  /**
   * The notice of an alarm for the team's webhook, queued in the alarm's transaction (none without a webhook): every
   * event of the alarm's life, with its id, so a receiver can open and resolve one incident.
   */
  async enqueue(trx: Kysely<Database>, alarm: Alarm, reason: AlarmNoticeReason, context?: NoticeContext) {
    // A rule may keep its alarms (or its escalations) off the webhook.
    if (context?.route && !context.route.webhook) return;
    if (!(await repo.findWebhook(trx, alarm.group_id))) return;
    const notice: AlarmNotice = { event: `alarm.${reason}`, at: this.clock(), alarm };
    await this.outbox().add(trx, {
      group_id: alarm.group_id,
      alarm_id: alarm.id,
      channel: 'webhook',
      payload: JSON.stringify(notice),
    });
  }

  committed() {
    this.outbox().poke();
  }

  /**
   * Posts a test notice (`alarm.test`, a made-up alarm of id 0) to the team's webhook now, signed like any other, and
   * says how it went. One test per team at a time: a second caller meanwhile gets the first one's answer.
   */
  test(actor: UserRow, groupId?: number): Promise<AlarmTestResult> {
    const group = teamActedOn(actor, groupId);
    return this.testing.run(group, () => this.sendTest(group));
  }

  private readonly testing = new SharedRuns<number, AlarmTestResult>();

  private async sendTest(group: number): Promise<AlarmTestResult> {
    const webhook = await repo.findWebhook(this.db.kysely, group);
    if (!webhook) throw new AppError(ResultCode.FAILED, 'webhookNotSet');
    const notice: AlarmNotice = { event: 'alarm.test', at: this.clock(), alarm: testAlarm(group, this.clock()) };
    const body = JSON.stringify(notice);
    try {
      await postWebhook(webhook.url, this.headers(webhook.secret, body), body, this.policy, this.timeoutMs);
      return { ok: true, error: null };
    } catch (cause) {
      return { ok: false, error: cause instanceof WebhookFailure ? cause.kind : 'network error' };
    }
  }

  private headers(secret: string, body: string) {
    const timestamp = Math.floor(this.clock() / 1000);
    return {
      'content-type': 'application/json',
      'user-agent': 'IPP-Console-Alarms',
      [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
      [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, timestamp, body),
    };
  }

  /**
   * The outbox's sender for channel webhook: the team's URL and secret as they are now. What fails is stored (and
   * shown to the team) as a class only — "timeout", "refused", "HTTP error", "address not allowed"… — so the status is
   * no oracle for what answered where.
   */
  readonly deliver: OutboxSender = async (row) => {
    const webhook = await repo.findWebhook(this.db.kysely, row.group_id);
    if (!webhook) throw new Error('webhook removed');
    try {
      await postWebhook(webhook.url, this.headers(webhook.secret, row.payload), row.payload, this.policy, this.timeoutMs);
    } catch (cause) {
      throw cause instanceof WebhookFailure ? cause : new WebhookFailure('network error');
    }
  };

  private async present(group: number): Promise<AlarmWebhook> {
    const [webhook, counts, last] = await Promise.all([
      repo.findWebhook(this.db.kysely, group),
      repo.deliveryCounts(this.db.kysely, group, 'webhook'),
      repo.lastAttempt(this.db.kysely, group, 'webhook'),
    ]);
    return {
      url: webhook?.url ?? null,
      secret_hint: webhook ? `…${webhook.secret.slice(-4)}` : null,
      updated_at: webhook ? Number(webhook.updated_at) : null,
      ...counts,
      last_delivery: last
        ? {
            at: Number(last.attempted_at),
            ok: last.delivered_at !== null,
            error: last.last_error === null ? null : failureClass(last.last_error),
            attempts: last.attempts,
          }
        : null,
    };
  }
}

/** The made-up alarm of a test notice: id 0, no rule, no station; every field a real notice has. */
export function testAlarm(groupId: number, now: number): Alarm {
  return {
    id: 0,
    group_id: groupId,
    rule_id: null,
    rule_name: 'Test notice',
    kind: 'humidity_high',
    severity: 'warning',
    threshold: 80,
    minutes: null,
    class_id: null,
    class_name: null,
    series: null,
    comparison: null,
    threshold_low: null,
    ipp_id: 0,
    dev_id: 'TEST',
    site_name: 'Test notice from IPP Console',
    time_zone: 'UTC',
    state: 'active',
    value: 81,
    raised_at: now,
    last_seen_at: now,
    acknowledged_at: null,
    acknowledged_by_name: null,
    ack_note: null,
    cleared_at: null,
    cleared_by_name: null,
    clear_reason: null,
    escalated_at: null,
    silenced: false,
  };
}
