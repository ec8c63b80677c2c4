import type { LiveEvent } from '@ipp/contracts';
import pg from 'pg';
import type { Db } from '../../db/database.ts';

/** A live event and the team whose members may see it. */
export interface BusEvent {
  group_id: number;
  event: LiveEvent;
}

type Listener = (events: BusEvent[]) => void;

/** Events of one station within this window go out as one (a station sending images 4 a second makes 4 events a second). */
export const COALESCE_MS = 250;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; batches are split below it. */
const MAX_PAYLOAD = 7000;

/** Merges events of the same kind and station: reasons united, image counts summed, the newest ids and times kept. */
export function coalesce(events: readonly BusEvent[]): BusEvent[] {
  const merged = new Map<string, BusEvent>();
  for (const item of events) {
    // Per team too: a station moved to another team is announced to both, and neither may lose its event.
    const key = `${item.group_id}:${item.event.type}:${item.event.ipp_id}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, structuredClone(item));
      continue;
    }
    const a = seen.event;
    const b = item.event;
    if (a.type === 'ipp' && b.type === 'ipp') a.reasons = [...new Set([...a.reasons, ...b.reasons])];
    if (a.type === 'roi' && b.type === 'roi') {
      a.count += b.count;
      a.last_roi_id = Math.max(a.last_roi_id, b.last_roi_id);
    }
    a.at = Math.max(a.at, b.at);
  }
  return [...merged.values()];
}

/**
 * Where live events travel between the code that changes data and the streams open to browsers (issue 23). Publishing
 * never waits and never fails the change that caused it: a lost event costs a page one refresh, which its polling
 * makes up. Events are gathered for COALESCE_MS, merged per station, then sent.
 */
export abstract class EventBus {
  private readonly listeners = new Set<Listener>();
  private pending: BusEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  protected closed = false;

  publish(item: BusEvent) {
    if (this.closed) return;
    this.pending.push(item);
    this.timer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends what is gathered now (tests; shutdown). */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = coalesce(this.pending);
    this.pending = [];
    if (batch.length > 0) this.send(batch);
  }

  protected deliver(events: BusEvent[]) {
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch {
        // One broken stream must not keep the events from the others.
      }
    }
  }

  protected abstract send(batch: BusEvent[]): void;

  async close() {
    this.flush();
    this.closed = true;
    this.listeners.clear();
  }
}

/** One process (SQLite): events go straight to this process's streams. */
export class LocalEventBus extends EventBus {
  protected send(batch: BusEvent[]) {
    setImmediate(() => this.deliver(batch));
  }
}

/**
 * Several processes behind one proxy (PostgreSQL): events go out by NOTIFY on a channel of this database schema and come
 * back, to every process including this one, through a LISTEN on a connection of its own. That connection is opened
 * again after a failure (with a growing pause); events published meanwhile still reach this process's streams.
 */
export class PgEventBus extends EventBus {
  private client: pg.Client | null = null;
  private retryMs = 500;
  private reconnect: NodeJS.Timeout | null = null;
  readonly channel: string;
  private ready: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly log: (message: string) => void,
  ) {
    super();
    this.channel = `ipp_events${db.pg?.schema ? `_${db.pg.schema}` : ''}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
    this.ready = this.connect();
  }

  /** Resolves once the LISTEN is in place (tests wait for it before publishing from another process). */
  listening(): Promise<void> {
    return this.ready;
  }

  private async connect(): Promise<void> {
    if (this.closed || !this.db.pg) return;
    const client = new pg.Client({
      connectionString: this.db.pg.connectionString,
      // A connection dropped silently by the network would otherwise stop every event without an error.
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      try {
        this.deliver(JSON.parse(message.payload) as BusEvent[]);
      } catch {
        // A payload this version cannot read is skipped.
      }
    });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('end');
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.log(`live events: the LISTEN connection was lost; reconnecting in ${this.retryMs} ms`);
      this.reconnect = setTimeout(() => void (this.ready = this.connect()), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
      if (this.closed) {
        // Closed while connecting: this connection must not outlive the bus.
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryMs = 500;
    } catch (error) {
      this.log(`live events: LISTEN failed (${error instanceof Error ? error.message : String(error)})`);
      this.client = client;
      lost();
    }
  }

  protected send(batch: BusEvent[]) {
    // Split under PostgreSQL's payload limit.
    const chunks: { items: BusEvent[]; texts: string[]; size: number }[] = [];
    for (const item of batch) {
      const text = JSON.stringify(item);
      let chunk = chunks.at(-1);
      if (!chunk || chunk.size + text.length + 1 > MAX_PAYLOAD) chunks.push((chunk = { items: [], texts: [], size: 2 }));
      chunk.items.push(item);
      chunk.texts.push(text);
      chunk.size += text.length + 1;
    }
    for (const chunk of chunks) {
      this.notify(`[${chunk.texts.join(',')}]`).catch(() => {
        // The database is away: this process's own streams still get the events.
        this.deliver(chunk.items);
      });
    }
  }

  private async notify(payload: string) {
    const client = this.client;
    if (!client) throw new Error('not listening');
    await client.query('select pg_notify($1, $2)', [this.channel, payload]);
  }

  override async close() {
    await super.close();
    if (this.reconnect) clearTimeout(this.reconnect);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}

export function eventBusFor(db: Db, log: (message: string) => void): EventBus {
  return db.dialect === 'postgres' && db.pg ? new PgEventBus(db, log) : new LocalEventBus();
}
