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
/** Receivers looked at in one pass (each its first due notice). */
const HEADS = 200;
/** Receivers sent to at once by one process; each receiver gets one notice at a time. */
export const OUTBOX_LANES = 16;

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

const receiverKey = (row: repo.Receiver) => JSON.stringify([row.channel, row.group_id, row.recipient]);

/**
 * The alarm notices waiting to go out (webhook posts, e-mails): rows of `alarm_deliveries`, sent and retried with a
 * doubling pause until delivered or given up. Several processes share it: each takes a row under a lease first.
 *
 * Each receiver (a team's webhook, a person's address) has its own lane: one notice at a time, in order, and lanes
 * run side by side, so a receiver that never answers holds up only its own notices (issue 37). A failed try defers
 * the receiver's other notices with it: a receiver that keeps failing is backed off as a whole.
 */
export class AlarmOutbox {
  private timer: NodeJS.Timeout | null = null;
  /** The pass looking for receivers with notices due (its lanes run on after it). */
  private scanning: Promise<void> | null = null;
  /** A notice added while a pass runs: one more pass after it, which will see it. */
  private again = false;
  /** The lanes sending now, by receiver. */
  private readonly lanes = new Map<string, Promise<void>>();
  /** Stopping: no new lane starts (an alarm evaluated during shutdown still pokes). */
  private stopped = false;

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

  /**
   * Sends what is due now (the loop's step; tests call it with a moved clock): starts a lane for each receiver with a
   * notice due and none sending, and resolves when the lanes running then are done. The pass itself waits for no
   * receiver: a caller that does not await it (a poke) holds up nobody.
   */
  async deliverDue(): Promise<void> {
    if (this.scanning) this.again = true;
    else {
      this.scanning = (async () => {
        try {
          do {
            this.again = false;
            await this.scan();
          } while (this.again);
        } finally {
          this.scanning = null;
        }
      })();
    }
    await this.scanning;
    await Promise.all(this.lanes.values());
  }

  private async scan() {
    const now = this.clock();
    for (const row of await repo.dueHeads(this.db.kysely, now, HEADS)) {
      const key = receiverKey(row);
      if (this.lanes.has(key)) continue;
      // Full: the next lane to end looks again.
      if (this.lanes.size >= OUTBOX_LANES) break;
      if (!(await repo.leaseDelivery(this.db.kysely, row.id, now, now + LEASE_MS))) continue;
      const lane = this.lane(row)
        .catch(this.onError)
        .finally(() => {
          this.lanes.delete(key);
          if (this.lanes.size === OUTBOX_LANES - 1) this.poke();
        });
      this.lanes.set(key, lane);
    }
  }

  /** One receiver's notices, oldest first, until none is due, a try fails or the outbox stops (shutdown waits for it). */
  private async lane(first: OutboxRow & { attempts: number }) {
    let row: (OutboxRow & { attempts: number }) | undefined = first;
    while (row && (await this.attempt(row)) && !this.stopped) {
      const now = this.clock();
      row = await repo.nextDueOf(this.db.kysely, first, now);
      if (row && !(await repo.leaseDelivery(this.db.kysely, row.id, now, now + LEASE_MS))) return;
    }
  }

  /** One try of one notice: whether it got through. */
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
      return true;
    }
    const giveUp = attempts >= OUTBOX_MAX_ATTEMPTS;
    const next = now + retryDelayMs(attempts);
    // The try's outcome and the receiver's pause together: no pass sees one without the other.
    await this.db.kysely.transaction().execute(async (trx) => {
      await repo.updateDelivery(trx, row.id, {
        attempts,
        attempted_at: now,
        last_error: error,
        leased_until: null,
        ...(giveUp ? { failed_at: now } : { next_at: next }),
      });
      await repo.deferReceiver(trx, row, next);
    });
    return false;
  }

  start(pollMs: number) {
    this.timer ??= setInterval(() => this.poke(), pollMs);
    this.timer.unref();
  }

  poke() {
    if (!this.stopped) void this.deliverDue().catch(this.onError);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.scanning;
    while (this.lanes.size > 0) await Promise.all(this.lanes.values());
  }
}
