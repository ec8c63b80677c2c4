import { ResultCode } from '@ipp/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';
import { sendFailure } from './envelope.ts';
import { parseLang } from './messages.ts';

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

/**
 * The per-user bound on expensive calls (route option `expensive`). Counted from the access check until the answer is
 * out or the client has gone; a call answered by the deadline frees its place even if its work goes on.
 */
export function registerUserConcurrency(app: FastifyInstance, perUser: number) {
  const inFlight = new Map<number, number>();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.config?.expensive || !request.auth) return;
    const id = request.auth.user.id;
    const n = inFlight.get(id) ?? 0;
    if (n >= perUser) throw new AppError(ResultCode.THROTTLED, 'tooManyInFlight', { max: perUser });
    inFlight.set(id, n + 1);
    // Freed when the answer is out or the client has gone (never left counted, which would lock the user out).
    reply.raw.once('close', () => {
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left > 0) inFlight.set(id, left);
      else inFlight.delete(id);
    });
  });
}
