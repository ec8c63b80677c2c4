import { LIVE_HEARTBEAT_MS, ResultCode } from '@ipp/contracts';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.ts';
import type { AuthContext } from '../auth/auth.service.ts';
import type { BusEvent, EventBus } from './event-bus.ts';

export interface LiveStreamLimits {
  perUser: number;
  max: number;
  maxMs: number;
  heartbeatMs?: number;
  /** How often the open streams' sessions are checked, all in one query (a signed-out page stops within this). */
  sessionCheckMs?: number;
}

/** Each this often, every open stream's session is checked: one signed out, displaced or revoked ends at once. */
export const SESSION_CHECK_MS = 500;

interface Stream {
  /** What the per-user bound counts: the user, or for the shared read-only demo account the browser's session. */
  owner: string;
  sessionId: number;
  /** The team whose events it gets; null = every team (a superadmin). */
  groupId: number | null;
  write(text: string): boolean;
  end(): void;
}

/** The per-user bound's key: the user, but each browser session of the read-only demo account, which many share. */
const ownerOf = (auth: AuthContext) => (auth.user.is_demo === 1 ? `session:${auth.session.id}` : `user:${auth.user.id}`);

/**
 * The live event streams open in this process (GET /api/events, Server-Sent Events). Each gets the events of its
 * caller's team only (a superadmin's: all), a comment line every heartbeat so proxies keep it open, and ends when its
 * session ends, after `maxMs` (the browser reconnects and is checked again), when the client goes, or at shutdown.
 * Bounded per user and in total; a client that does not read is dropped rather than buffered without end.
 *
 * A session that ends (signed out, displaced by a sign-in elsewhere, revoked by a change of team, role or password)
 * ends its streams within SESSION_CHECK_MS: one query checks every open stream's session, in this process and, since it
 * reads the database, whichever process ended the session. Each batch of events is also checked just before it is
 * written, so a stream never gets an event after its session has ended (issue 37: a user moved to another team got
 * the old team's events until the next heartbeat).
 */
export class LiveStreams {
  private readonly streams = new Set<Stream>();
  private readonly unsubscribe: () => void;
  private readonly sweep: NodeJS.Timeout;
  /** Batches go out one after another, in the order they came, each after its session check. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    bus: EventBus,
    private readonly limits: LiveStreamLimits,
    /** Of these session ids, those still open. */
    private readonly openSessions: (sessionIds: number[]) => Promise<Set<number>>,
  ) {
    this.unsubscribe = bus.subscribe((events) => {
      this.sending = this.sending.then(() => this.dispatch(events)).catch(() => undefined);
    });
    this.sweep = setInterval(() => void this.endClosedSessions([...this.streams]), limits.sessionCheckMs ?? SESSION_CHECK_MS);
    this.sweep.unref();
  }

  get size() {
    return this.streams.size;
  }

  /** Refused (1003) beyond the bounds, before anything is written: the caller gets a normal envelope. */
  admit(auth: AuthContext) {
    const owner = ownerOf(auth);
    const mine = [...this.streams].filter((s) => s.owner === owner).length;
    if (mine >= this.limits.perUser || this.streams.size >= this.limits.max)
      throw new AppError(ResultCode.THROTTLED, 'tooManyStreams', { max: this.limits.perUser });
  }

  /** Ends the streams whose session has ended; answers those still open. A failed check ends none (the next retries). */
  private async endClosedSessions(streams: Stream[]): Promise<Stream[]> {
    if (streams.length === 0) return [];
    let open: Set<number>;
    try {
      open = await this.openSessions([...new Set(streams.map((s) => s.sessionId))]);
    } catch {
      return streams;
    }
    return streams.filter((stream) => {
      if (open.has(stream.sessionId)) return true;
      stream.end();
      return false;
    });
  }

  open(request: FastifyRequest, reply: FastifyReply, auth: AuthContext) {
    reply.hijack();
    const raw = reply.raw;
    // The client went while its session was being read: its 'close' has passed already, so nothing would end this one.
    if (raw.destroyed || request.raw.destroyed) return;
    raw.writeHead(200, {
      // What the hooks set on the reply (CORS, security headers) goes out too.
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    let ended = false;
    const stream: Stream = {
      owner: ownerOf(auth),
      sessionId: auth.session.id,
      groupId: auth.user.role === 'superadmin' ? null : (auth.user.group_id ?? -1),
      write: (text) => {
        if (ended) return false;
        // More than a megabyte waiting for a client that does not read: drop it (it reconnects and refetches).
        if (raw.writableLength > 1024 * 1024) {
          stream.end();
          return false;
        }
        return raw.write(text);
      },
      end: () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        this.streams.delete(stream);
        raw.end();
      },
    };
    // The browser waits this long before reconnecting after the stream ends.
    raw.write(`retry: 3000\n: connected\n\n`);
    // Its session is checked by the sweep; the heartbeat only keeps proxies from closing an idle connection.
    const heartbeat = setInterval(() => stream.write(`: ${Date.now()}\n\n`), this.limits.heartbeatMs ?? LIVE_HEARTBEAT_MS);
    const lifetime = setTimeout(() => stream.end(), this.limits.maxMs);
    raw.once('close', () => stream.end());
    request.log.debug({ user: auth.user.id }, 'live event stream opened');
    this.streams.add(stream);
  }

  private async dispatch(events: BusEvent[]) {
    if (this.streams.size === 0) return;
    const lines = events.map((e) => ({
      group: e.group_id,
      text: `event: ${e.event.type}\ndata: ${JSON.stringify(e.event)}\n\n`,
    }));
    const outgoing = new Map<Stream, string>();
    for (const stream of this.streams) {
      const text = lines
        .filter((l) => stream.groupId === null || l.group === stream.groupId)
        .map((l) => l.text)
        .join('');
      if (text) outgoing.set(stream, text);
    }
    for (const stream of await this.endClosedSessions([...outgoing.keys()])) stream.write(outgoing.get(stream)!);
  }

  /** Shutdown: every stream ends, so the server's close does not wait for them. */
  closeAll() {
    this.unsubscribe();
    clearInterval(this.sweep);
    for (const stream of [...this.streams]) stream.end();
  }
}
