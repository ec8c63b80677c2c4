import { ResultCode } from '@ipp/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { sendFailure } from './envelope.ts';
import { parseLang } from './messages.ts';
import { yieldingBetweenQueries } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The server-side deadline of this route: 'long' for uploads, imports and other calls that legitimately take
     * minutes (multipart requests get it anyway), 'none' for answers that stream for as long as they need.
     */
    deadline?: 'long' | 'none';
    /**
     * An expensive call (statistics over long ranges, similarity, classify uploads): one user may have at most
     * EXPENSIVE_PER_USER of them in flight; more are answered at once with 1003 "busy, retry" (issue 20).
     */
    expensive?: boolean;
  }
}

/**
 * Every call answers within a bound (issue 20: one stuck call made every later one hang for ever): a handler that has
 * not answered after the route's deadline gets a 503 envelope with the request id, and the server log says which
 * route. The work itself is not cancelled; a late result is dropped. An answer that has started to stream (headers
 * out, e.g. an export) is left alone.
 */
export function registerDeadline(app: FastifyInstance, limits: { normalMs: number; longMs: number }) {
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    if (config?.deadline === 'none') return done();
    const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    const ms = config?.deadline === 'long' || multipart ? limits.longMs : limits.normalMs;
    const timer = setTimeout(() => {
      if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
      request.log.error(
        { reqId: request.id, method: request.method, route: request.routeOptions.url, ms },
        'request deadline passed: answered 503 (the handler is still running)',
      );
      void sendFailure(
        reply,
        new AppError(ResultCode.INTERNAL, 'deadline', { seconds: Math.max(1, Math.round(ms / 1000)) }),
        parseLang(request.headers['x-lang']),
        503,
      );
    }, ms);
    // 'close' comes after the answer is out and also when the client goes away first.
    reply.raw.once('close', () => clearTimeout(timer));
    done();
  });
}

export interface ExpensiveBounds {
  /** Expensive calls one user may have in flight (EXPENSIVE_PER_USER); more are refused at once. */
  perUser: number;
  /** Expensive handlers the whole process runs at once (EXPENSIVE_RUNNING). */
  running: number;
  /** How long a call waits for its turn to run before it is refused "busy, retry". */
  waitMs: number;
}

/**
 * The process-wide bound on expensive work running at once: calls wait in a queue per user and take turns user by user
 * (one user's calls never keep another's waiting behind all of them), for at most `waitMs`; then they are refused.
 */
export class ExpensiveGate {
  private runningNow = 0;
  /** Waiting calls per user; the Map's order is the turn order (a user served goes to the back). */
  private readonly waiting = new Map<number, { grant: () => void }[]>();

  constructor(private readonly bounds: Pick<ExpensiveBounds, 'running' | 'waitMs'>) {}

  get running() {
    return this.runningNow;
  }

  /**
   * Resolves with the release once the call may run; rejects with 1003 "busy" after `waitMs`. `gone` ends the wait
   * of a call whose client has left (it then never runs).
   */
  enter(userId: number, gone: Promise<void>): Promise<() => void> {
    if (this.runningNow < this.bounds.running && this.waiting.size === 0) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(this.take());
        },
      };
      const leave = () => {
        const queue = this.waiting.get(userId);
        const at = queue?.indexOf(waiter) ?? -1;
        if (at < 0) return false;
        queue!.splice(at, 1);
        if (queue!.length === 0) this.waiting.delete(userId);
        return true;
      };
      const timer = setTimeout(() => {
        if (leave()) reject(busy(this.bounds.waitMs));
      }, this.bounds.waitMs);
      void gone.then(() => {
        if (leave()) {
          clearTimeout(timer);
          reject(busy(this.bounds.waitMs));
        }
      });
      const queue = this.waiting.get(userId);
      if (queue) queue.push(waiter);
      else this.waiting.set(userId, [waiter]);
    });
  }

  private take(): () => void {
    this.runningNow++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.runningNow--;
      this.next();
    };
  }

  private next() {
    if (this.runningNow >= this.bounds.running) return;
    const [userId, queue] = this.waiting.entries().next().value ?? [];
    if (userId === undefined || !queue) return;
    const waiter = queue.shift()!;
    // The user goes to the back of the turn order, with the calls they still have waiting.
    this.waiting.delete(userId);
    if (queue.length > 0) this.waiting.set(userId, queue);
    waiter.grant();
  }
}

/**
 * Expensive handlers running at once in the process. On PostgreSQL this keeps most of its pool of 10 for uploads and
 * page loads; on SQLite, whose one connection runs one query at a time, the pauses between their queries
 * (yieldingBetweenQueries) already keep them to about half the time, and this bounds how many are held open.
 */
export const EXPENSIVE_RUNNING = 4;
/** How long an expensive call waits for its turn before "busy, retry in 5 seconds". */
export const EXPENSIVE_WAIT_MS = 5000;

const busy = (waitMs: number) => new AppError(ResultCode.THROTTLED, 'busy', { seconds: Math.max(1, Math.ceil(waitMs / 1000)) });

const kExpensive = Symbol('expensive call admitted');

/** Settles when the answer is out or the client has gone, also if that was before this was asked. */
function closed(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (reply.raw.destroyed || request.raw.socket?.destroyed) return Promise.resolve();
  return new Promise((resolve) => reply.raw.once('close', () => resolve()));
}

/**
 * The bounds on expensive calls (route option `expensive`), issue 20 and 37.
 *
 * Per user: counted from arrival (the access check) until the answer is out or the client has gone; a call answered by
 * the deadline frees its place even if its work goes on. Process-wide: an admitted call waits for its turn in an
 * ExpensiveGate before its handler runs, and holds it until its answer is out.
 *
 * On SQLite both needed the handler to give the event loop back: better-sqlite3 answers synchronously, so a call ran
 * from its arrival to its answer before the next request was even read. "In flight" never exceeded one (twelve calls
 * at once all ran), and fifty calls at once ran back to back while instrument uploads waited behind all of them. Now
 * the handler starts a turn later (by then the calls that arrived with it are counted, and refused beyond the bound),
 * and pauses before each of its queries (db/database.ts yieldingBetweenQueries), so uploads and page loads go on
 * between them.
 */
export function registerExpensiveBounds(app: FastifyInstance, bounds: ExpensiveBounds) {
  const inFlight = new Map<number, number>();
  const gate = new ExpensiveGate(bounds);
  app.decorate('expensiveGate', gate);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.expensive || !request.auth) return;
    const id = request.auth.user.id;
    const n = inFlight.get(id) ?? 0;
    if (n >= bounds.perUser) throw new AppError(ResultCode.THROTTLED, 'tooManyInFlight', { max: bounds.perUser });
    inFlight.set(id, n + 1);
    (request as { [kExpensive]?: boolean })[kExpensive] = true;
    // Freed when the answer is out or the client has gone (never left counted, which would lock the user out).
    void closed(request, reply).then(() => {
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left > 0) inFlight.set(id, left);
      else inFlight.delete(id);
    });
  });
  app.addHook('preHandler', (request, reply, done) => {
    if (!(request as { [kExpensive]?: boolean })[kExpensive] || !request.auth) return done();
    // An upload (classify) reads its body in the handler, at the client's pace: it does not hold a turn meanwhile.
    const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    const gone = closed(request, reply);
    const turn = multipart ? Promise.resolve(() => undefined) : gate.enter(request.auth.user.id, gone);
    turn.then(
      (release) => {
        // Its turn ends with its answer, or when its client has gone (even before the turn came).
        reply.raw.once('finish', release);
        void gone.then(release);
        // A turn later: the requests that arrived with this one are read (and counted) first.
        setImmediate(() => yieldingBetweenQueries(() => done()));
      },
      (error: unknown) => done(error as Error),
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process-wide bound on expensive work (tests read how many run). */
    expensiveGate: ExpensiveGate;
  }
}
