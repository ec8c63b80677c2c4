import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { Metrics } from './metrics.ts';
import { gauges, ping } from './ops.repository.ts';

/**
 * Outside the API document and its access table: they answer plain JSON or text (no envelope) to load balancers and
 * scrapers, need no session, and /metrics checks its own credential. Outside /api no access rule applies.
 */
const HIDDEN = { schema: { hide: true } };

/** How long readiness waits for the database before it says not ready. */
const READY_DB_MS = 2000;

export interface OpsOptions {
  db: Db;
  token: string | undefined;
  allow: ReadonlySet<string>;
  liveStreams: () => number;
}

/** "::ffff:10.0.0.5" and "10.0.0.5" are one client. */
const bareAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:/, '');

const sameToken = (given: string, expected: string) => {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
};

/**
 * Health for whoever runs the server (issue 40): /healthz (the process answers), /readyz (it can serve: the database
 * answers and it is not shutting down), and /metrics in Prometheus text behind its own token or address allow-list.
 * Outside /api: they are for load balancers and scrapers, not the console, and carry no envelope.
 */
export function opsRoutes(app: FastifyInstance, options: OpsOptions) {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });

  app.get('/healthz', HIDDEN, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  app.get('/readyz', HIDDEN, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (draining) return reply.code(503).send({ status: 'shutting down' });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        ping(options.db),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), READY_DB_MS);
        }),
      ]);
      return reply.send({ status: 'ready' });
    } catch {
      return reply.code(503).send({ status: 'database unavailable' });
    } finally {
      clearTimeout(timer);
    }
  });

  const enabled = options.token !== undefined || options.allow.size > 0;
  if (!enabled) return;
  // Counted only where someone may read them: no work on every request otherwise.
  const metrics = new Metrics();
  app.addHook('onResponse', async (request, reply) =>
    metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000),
  );
  app.addHook('onClose', async () => metrics.stop());
  app.get('/metrics', HIDDEN, async (request, reply) => {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const byToken = options.token !== undefined && bearer !== undefined && sameToken(bearer, options.token);
    const byAddress = options.allow.has(bareAddress(request.socket.remoteAddress));
    if (!byToken && !byAddress) return reply.code(401).header('www-authenticate', 'Bearer').send('unauthorized\n');
    const text = metrics.render(await gauges(options));
    return reply
      .header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(text);
  });
}
