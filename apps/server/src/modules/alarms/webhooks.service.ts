import crypto from 'node:crypto';
import {
  ResultCode,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  type Alarm,
  type AlarmNotice,
  type AlarmWebhook,
  type AlarmWebhookSaveResult,
} from '@ipp/contracts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { visibleGroup } from '../ipps/ipps.service.ts';
import type { UserRow } from '../users/users.repository.ts';
import type { AlarmNotifier } from './alarms.service.ts';
import * as repo from './webhooks.repository.ts';

/** Tries before a notice is given up; with the backoff below the last one is about 21 minutes after the first. */
export const WEBHOOK_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;
/** A receiver that answers nothing within this is a failed try. */
const SEND_TIMEOUT_MS = 10_000;
const LEASE_MS = 2 * SEND_TIMEOUT_MS;
const BATCH = 20;

export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);

/** `v1=` HMAC-SHA256 (hex) of `<timestamp>.<body>` with the team's secret: what a receiver recomputes to trust a notice. */
export function webhookSignature(secret: string, timestamp: number, body: string) {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Alarm notices by webhook (issue 23): a team's administrators set a URL; each raised alarm (and each re-notice) becomes
 * a row of an outbox, posted as signed JSON and retried with a doubling pause until delivered or given up. Several
 * processes share the outbox: each takes a notice under a short lease.
 */
export class WebhooksService implements AlarmNotifier {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
    private readonly send: typeof fetch = fetch,
  ) {}

  async get(actor: UserRow, groupId?: number): Promise<AlarmWebhook> {
    return this.present(teamOf(actor, groupId));
  }

  async save(
    actor: UserRow,
    body: { group_id?: number; url: string | null; new_secret: boolean },
  ): Promise<AlarmWebhookSaveResult> {
    const group = teamOf(actor, body.group_id);
    const now = this.clock();
    const secret = await this.db.kysely.transaction().execute(async (trx) => {
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

  notify(alarm: Alarm, reason: 'raised' | 'again') {
    void this.enqueue(alarm, reason).catch(this.onError);
  }

  private async enqueue(alarm: Alarm, reason: 'raised' | 'again') {
    if (!(await repo.findWebhook(this.db.kysely, alarm.group_id))) return;
    const now = this.clock();
    const notice: AlarmNotice = { event: reason === 'raised' ? 'alarm.raised' : 'alarm.again', at: now, alarm };
    await repo.insertDelivery(this.db.kysely, {
      group_id: alarm.group_id,
      alarm_id: alarm.id,
      payload: JSON.stringify(notice),
      attempts: 0,
      next_at: now,
      created_at: now,
    });
    this.poke();
  }

  /** Sends what is due now, one pass (the loop's step; tests call it with a moved clock). */
  deliverDue(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass() {
    const now = this.clock();
    for (const row of await repo.dueDeliveries(this.db.kysely, now, BATCH)) {
      if (!(await repo.leaseDelivery(this.db.kysely, row.id, now, now + LEASE_MS))) continue;
      await this.attempt(row);
    }
  }

  private async attempt(row: { id: number; group_id: number; payload: string; attempts: number }) {
    const webhook = await repo.findWebhook(this.db.kysely, row.group_id);
    const attempts = row.attempts + 1;
    const startedAt = this.clock();
    if (!webhook) {
      await repo.updateDelivery(this.db.kysely, row.id, {
        failed_at: startedAt,
        last_error: 'webhook removed',
        leased_until: null,
      });
      return;
    }
    let error: string | null = null;
    try {
      const timestamp = Math.floor(startedAt / 1000);
      const response = await this.send(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'IPP-Console-Alarms',
          [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(webhook.secret, timestamp, row.payload),
        },
        body: row.payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status > 299) error = `HTTP ${response.status}`;
    } catch (cause) {
      error = (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)).slice(0, 500);
    }
    const now = this.clock();
    if (error === null) {
      await repo.updateDelivery(this.db.kysely, row.id, {
        attempts,
        attempted_at: now,
        delivered_at: now,
        last_error: null,
        leased_until: null,
      });
    } else {
      const giveUp = attempts >= WEBHOOK_MAX_ATTEMPTS;
      await repo.updateDelivery(this.db.kysely, row.id, {
        attempts,
        attempted_at: now,
        last_error: error,
        leased_until: null,
        ...(giveUp ? { failed_at: now } : { next_at: now + retryDelayMs(attempts) }),
      });
    }
  }

  start(pollMs: number) {
    this.timer ??= setInterval(() => this.poke(), pollMs);
    this.timer.unref();
  }

  poke() {
    void this.deliverDue().catch(this.onError);
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async present(group: number): Promise<AlarmWebhook> {
    const [webhook, counts, last] = await Promise.all([
      repo.findWebhook(this.db.kysely, group),
      repo.deliveryCounts(this.db.kysely, group),
      repo.lastAttempt(this.db.kysely, group),
    ]);
    return {
      url: webhook?.url ?? null,
      secret_hint: webhook ? `…${webhook.secret.slice(-4)}` : null,
      updated_at: webhook ? Number(webhook.updated_at) : null,
      ...counts,
      last_delivery: last
        ? { at: Number(last.attempted_at), ok: last.delivered_at !== null, error: last.last_error, attempts: last.attempts }
        : null,
    };
  }
}

function teamOf(actor: UserRow, groupId?: number) {
  const group = visibleGroup(actor, groupId);
  if (group === undefined || group < 0) throw new AppError(ResultCode.BAD_PARAM, 'teamRequired', {}, 'group_id');
  return group;
}
