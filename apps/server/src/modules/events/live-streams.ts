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
}

interface Stream {
  userId: number;
  /** The team whose events it gets; null = every team (a superadmin). */
  groupId: number | null;
  write(text: string): boolean;
  end(): void;
}

/**
 * The live event streams open in this process (GET /api/events, Server-Sent Events). Each gets the events of its
 * caller's team only (a superadmin's: all), a comment line every heartbeat so proxies keep it open, and ends when its
 * session ends, after `maxMs` (the browser reconnects and is checked again), when the client goes, or at shutdown.
 * Bounded per user and in total; a client that does not read is dropped rather than buffered without end.
 */
export class LiveStreams {
  private readonly streams = new Set<Stream>();
  private readonly unsubscribe: () => void;

  constructor(
    bus: EventBus,
    private readonly limits: LiveStreamLimits,
    private readonly sessionOpen: (sessionId: number) => Promise<boolean>,
  ) {
    this.unsubscribe = bus.subscribe((events) => this.dispatch(events));
  }

  get size() {
    return this.streams.size;
  }

  /** Refused (1003) beyond the bounds, before anything is written: the caller gets a normal envelope. */
  admit(auth: AuthContext) {
    const mine = [...this.streams].filter((s) => s.userId === auth.user.id).length;
    if (mine >= this.limits.perUser || this.streams.size >= this.limits.max)
      throw new AppError(ResultCode.THROTTLED, 'tooManyStreams', { max: this.limits.perUser });
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
      userId: auth.user.id,
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
    const heartbeat = setInterval(() => {
      void this.sessionOpen(auth.session.id).then(
        (open) => (open ? stream.write(`: ${Date.now()}\n\n`) : stream.end()),
        () => stream.end(),
      );
    }, this.limits.heartbeatMs ?? LIVE_HEARTBEAT_MS);
    const lifetime = setTimeout(() => stream.end(), this.limits.maxMs);
    raw.once('close', () => stream.end());
    request.log.debug({ user: auth.user.id }, 'live event stream opened');
    this.streams.add(stream);
  }

  private dispatch(events: BusEvent[]) {
    if (this.streams.size === 0) return;
    const lines = events.map((e) => ({
      group: e.group_id,
      text: `event: ${e.event.type}\ndata: ${JSON.stringify(e.event)}\n\n`,
    }));
    for (const stream of this.streams) {
      const text = lines
        .filter((l) => stream.groupId === null || l.group === stream.groupId)
        .map((l) => l.text)
        .join('');
      if (text) stream.write(text);
    }
  }

  /** Shutdown: every stream ends, so the server's close does not wait for them. */
  closeAll() {
    this.unsubscribe();
    for (const stream of [...this.streams]) stream.end();
  }
}
