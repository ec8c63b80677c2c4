import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { shutdownWithin } from '../src/http/shutdown.ts';
import { buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';

/** Sends raw bytes over a real socket and reads everything the server writes until it closes the connection. */
function rawExchange(port: number, send: (socket: net.Socket) => void, ms = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${ms} ms: ${Buffer.concat(chunks).toString()}`));
    }, ms);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('connect', () => send(socket));
  });
}

function parse(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), json: JSON.parse(body) as Record<string, unknown> };
}

describe.each(dialects)('answers at the socket level on %s (issue 20)', (dialect) => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  async function listening(config = {}, beforeReady?: (app: FastifyInstance) => void) {
    env = await buildTestApp(dialect, { config, beforeReady });
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    return (env.app.server.address() as net.AddressInfo).port;
  }

  it('answers a 100 KB X-Token header with 431 in the envelope', async () => {
    const port = await listening();
    const raw = await rawExchange(port, (s) =>
      s.write(`GET /api/wyrbac/login/user-info HTTP/1.1\r\nHost: x\r\nX-Token: ${'a'.repeat(100 * 1024)}\r\n\r\n`),
    );
    const res = parse(raw);
    expect(res.status).toBe(431);
    expect(res.head).toContain('content-type: application/json');
    expect(res.json).toMatchObject({ code: 1002, msg: '请求头过大', data: '请求头过大', count: 0, index: null });
  });

  it('answers malformed HTTP with 400 in the envelope', async () => {
    const port = await listening();
    const res = parse(await rawExchange(port, (s) => s.write('GARBAGE / NOT-HTTP\r\n\r\n')));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 1002, msg: '请求格式不正确' });
  });

  it('cuts a request whose body trickles in too slowly, with 408 in the envelope', async () => {
    const port = await listening({ REQUEST_BODY_TIMEOUT_MS: 800 });
    const started = Date.now();
    const raw = await rawExchange(port, (s) => {
      s.write(
        'POST /api/wyrbac/login/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"user',
      );
      // One byte now and then, never the whole body.
      const drip = setInterval(() => (s.writable ? s.write(' ') : clearInterval(drip)), 200);
      s.on('close', () => clearInterval(drip));
    });
    const res = parse(raw);
    expect(res.status).toBe(408);
    expect(res.json).toMatchObject({ code: 1002, msg: '请求未能在 1 秒内完整送达' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('shuts down within its bound even while a request is stuck inside a database transaction', async () => {
    let entered = false;
    const port = await listening({ REQUEST_DEADLINE_MS: 60_000 }, (app) => {
      app.get('/api/test/stuck-in-transaction', { config: { access: 'public' } }, async () =>
        env!.db.kysely.transaction().execute(async (trx) => {
          await trx.selectFrom('users').select('id').execute();
          entered = true;
          await new Promise(() => undefined);
        }),
      );
    });
    const stuck = rawExchange(port, (s) => s.write('GET /api/test/stuck-in-transaction HTTP/1.1\r\nHost: x\r\n\r\n'), 20_000);
    while (!entered) await new Promise((resolve) => setTimeout(resolve, 10));
    const exits: number[] = [];
    const messages: string[] = [];
    const started = Date.now();
    const testEnv = env!;
    await new Promise<void>((resolve) => {
      void shutdownWithin({
        app: testEnv.app,
        closeRest: () => testEnv.db.close(),
        timeoutMs: 1500,
        graceMs: 300,
        exit: (code) => {
          exits.push(code);
          resolve();
        },
        log: (message) => messages.push(message),
      });
    });
    const took = Date.now() - started;
    expect(took).toBeLessThan(2500);
    expect(exits).toHaveLength(1);
    // The stuck request's connection was cut; whether the database closed in time decides the exit code.
    await stuck;
    if (exits[0] === 1) expect(messages.join('\n')).toMatch(/did not complete within 1500 ms/);
    else expect(exits[0]).toBe(0);
    env = undefined; // closed (or abandoned) by the shutdown under test
  });
});
