import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import * as repo from './notices.repository.ts';

/** Tries before a notice is given up; with the backoff below the last one is about 21 minutes after the first. */
export const OUTBOX_MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 60 * 60_000;
/** Longer than any sender may take (each bounds its own call), so a lease outlives the try it covers. */
const LEASE_MS = 60_000;
const BATCH = 20;

export const retryDelayMs = (attempts: number) => Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), MAX_RETRY_MS);

export interface OutboxRow {
  id: number;
  group_id: number;
  channel: string;
  recipient: string | null;
  payload: string;
}

/** Sends one notice of its channel; throws (with a short message) when it did not get through. */
export type OutboxSender = (row: OutboxRow) => Promise<void>;

/**
 * The alarm notices waiting to go out (webhook posts, e-mails): rows of `alarm_deliveries`, sent and retried with a
 * doubling pause until delivered or given up. Several processes share it: each takes a row under a lease first.
 */
export class AlarmOutbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** A notice added while a pass runs: one more pass after it, which will see it. */
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly senders: Record<string, OutboxSender>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues a notice in the caller's transaction (the alarm's); `poke` after it commits. */
  async add(
    trx: Kysely<Database>,
    row: { group_id: number; alarm_id: number; channel: string; recipient?: string; payload: string },
  ) {
    const now = this.clock();
    await repo.insertDelivery(trx, {
      ...row,
      recipient: row.recipient ?? null,
      attempts: 0,
      next_at: now,
      created_at: now,
    });
  }

  /** Sends what is due now, one pass (the loop's step; tests call it with a moved clock). */
  deliverDue(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private async pass() {
    const now = this.clock();
    for (const row of await repo.dueDeliveries(this.db.kysely, now, BATCH)) {
      if (!(await repo.leaseDelivery(this.db.kysely, row.id, now, now + LEASE_MS))) continue;
      await this.attempt(row);
    }
  }

  private async attempt(row: OutboxRow & { attempts: number }) {
    const attempts = row.attempts + 1;
    let error: string | null = null;
    try {
      const sender = this.senders[row.channel];
      if (!sender) throw new Error(`no sender for ${row.channel}`);
      await sender(row);
    } catch (cause) {
      error = (cause instanceof Error ? cause.message : String(cause)).slice(0, 500);
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
      const giveUp = attempts >= OUTBOX_MAX_ATTEMPTS;
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
}
