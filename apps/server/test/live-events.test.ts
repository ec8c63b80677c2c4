import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveEvent } from '@ipp/contracts';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { PgEventBus } from '../src/modules/events/event-bus.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, createUser, login, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';

/** A Server-Sent Events client over plain HTTP: what a browser's stream reader sees. */
interface Stream {
  status: number;
  contentType: string;
  events: LiveEvent[];
  text: () => string;
  ended: Promise<void>;
  close(): void;
  waitFor(test: (events: LiveEvent[]) => boolean, ms?: number): Promise<void>;
}

function openStream(app: FastifyInstance, token: string | undefined): Promise<Stream> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/events', headers: { 'x-lang': 'en', ...(token ? { 'x-token': token } : {}) } },
      (res) => {
        let raw = '';
        const events: LiveEvent[] = [];
        const ended = new Promise<void>((done) => res.once('close', () => done()));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          raw += chunk;
          for (const block of chunk.split('\n\n')) {
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data) events.push(JSON.parse(data.slice(6)) as LiveEvent);
          }
        });
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type']),
          events,
          text: () => raw,
          ended,
          close: () => req.destroy(),
          async waitFor(test, ms = 5000) {
            const deadline = Date.now() + ms;
            while (!test(events)) {
              if (Date.now() > deadline) throw new Error(`no such event in time; got ${JSON.stringify(events)}`);
              await new Promise((r) => setTimeout(r, 20));
            }
          },
        });
      },
    );
    req.on('error', reject);
  });
}

const ippEvents = (events: LiveEvent[], id: number) => events.filter((e) => e.type === 'ipp' && e.ipp_id === id);

describe.each(dialects)('live events on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  const extra: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of extra.splice(0)) await close();
    await env.close();
  });
  const start = async (config: Partial<TestEnv['config']> = {}) => {
    env = await buildTestApp(dialect, { config });
    w = await buildWorld(env);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    if (env.app.events instanceof PgEventBus) await env.app.events.listening();
  };

  it("streams each team its own stations' changes and new images, a superadmin all, coalesced per station", async () => {
    await start();
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    const user = await openStream(env.app, w.tokens.user);
    const other = await openStream(env.app, w.tokens.otherAdmin);
    const superadmin = await openStream(env.app, w.tokens.superadmin);
    expect(user.status).toBe(200);
    expect(user.contentType).toMatch(/^text\/event-stream/);
    expect((await telemetry(env, a1.key, { at: env.clock.now - 1000, temperature_c: 12 })).statusCode).toBe(200);
    expect((await telemetry(env, b1.key, { at: env.clock.now - 1000, temperature_c: 13 })).statusCode).toBe(200);
    // Three images of A1 in a burst arrive as few events whose counts add up to three.
    for (let i = 0; i < 3; i++)
      expect(
        body(await uploadRoi(env, a1.key, { captured_at: env.clock.now - 500 + i, size_px: 40 }, await pngOf(900 + i))).code,
      ).toBe(1000);
    await user.waitFor(
      (events) => events.filter((e) => e.type === 'roi').reduce((n, e) => n + (e.type === 'roi' ? e.count : 0), 0) === 3,
    );
    await superadmin.waitFor((events) => ippEvents(events, b1.id).length > 0 && ippEvents(events, a1.id).length > 0);
    await other.waitFor((events) => ippEvents(events, b1.id).length > 0);
    expect(ippEvents(user.events, a1.id).some((e) => e.type === 'ipp' && e.reasons.includes('telemetry'))).toBe(true);
    expect(user.events.filter((e) => e.type === 'roi').length).toBeLessThan(3);
    // Nothing of the other team, ever.
    expect(user.events.every((e) => e.ipp_id === a1.id)).toBe(true);
    expect(other.events.every((e) => e.ipp_id === b1.id)).toBe(true);
    // A configuration change is an event too.
    await call(env, w.tokens.ownAdmin, 'POST', '/api/ipp/apply-config', { ids: [a1.id], config: { gain: 3 } });
    await user.waitFor((events) => events.some((e) => e.type === 'ipp' && e.reasons.includes('config')));
    for (const s of [user, other, superadmin]) s.close();
  });

  it('refuses a caller without a session, bounds the streams per user, and ends a stream when its session ends', async () => {
    await start({ EVENT_STREAMS_PER_USER: 2, EVENT_HEARTBEAT_MS: 100 });
    const anonymous = await openStream(env.app, undefined);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text() || (await anonymous.ended.then(() => anonymous.text())))).toMatchObject({ code: 1010 });
    const first = await openStream(env.app, w.tokens.user);
    const second = await openStream(env.app, w.tokens.user);
    const third = await openStream(env.app, w.tokens.user);
    await third.ended;
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text())).toMatchObject({ code: 1003 });
    // Another user is not held back by this one's streams.
    const neighbour = await openStream(env.app, w.tokens.ownAdmin);
    expect(neighbour.status).toBe(200);
    expect(env.app.liveStreams.size).toBe(3);
    // Signing out ends that session's streams at the next heartbeat; the neighbour's stays, its heartbeats flowing.
    expect(body(await call(env, w.tokens.user, 'GET', '/api/wyrbac/login/logout')).code).toBe(1000);
    await Promise.all([first.ended, second.ended]);
    await neighbour.waitFor(() => (neighbour.text().match(/^: \d+$/gm) ?? []).length >= 2);
    expect(env.app.liveStreams.size).toBe(1);
    neighbour.close();
  });

  it('ends a stream within a second of its sign-out or of a sign-in elsewhere, and writes it nothing after (issue 37)', async () => {
    // A long heartbeat: the stream must end without waiting for one.
    await start({ EVENT_HEARTBEAT_MS: 60_000 });
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const user = await openStream(env.app, w.tokens.user);
    const neighbour = await openStream(env.app, w.tokens.ownAdmin);
    expect([user.status, neighbour.status]).toEqual([200, 200]);
    let signedOutAt = Date.now();
    expect(body(await call(env, w.tokens.user, 'GET', '/api/wyrbac/login/logout')).code).toBe(1000);
    // An event right after the sign-out reaches the neighbour, never the signed-out page.
    expect((await telemetry(env, a1.key, { at: env.clock.now - 1000, temperature_c: 12 })).statusCode).toBe(200);
    await user.ended;
    expect(Date.now() - signedOutAt).toBeLessThan(1500);
    await neighbour.waitFor((events) => ippEvents(events, a1.id).length > 0);
    expect(user.events).toEqual([]);
    // Signing in again from another browser displaces the admin's session: that page's stream ends as well.
    signedOutAt = Date.now();
    await login(env, 'admin_a');
    await neighbour.ended;
    expect(Date.now() - signedOutAt).toBeLessThan(1500);
    expect(env.app.liveStreams.size).toBe(0);
  });

  it("gives a user moved to another team none of the old team's events, and ends the stream (issue 37)", async () => {
    await start({ EVENT_HEARTBEAT_MS: 60_000 });
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const moved = await openStream(env.app, w.tokens.user);
    const stays = await openStream(env.app, w.tokens.ownAdmin);
    const movedAt = Date.now();
    const saved = await call(env, w.tokens.superadmin, 'POST', '/api/user/save', {
      id: w.ids.user,
      account: 'user_a',
      name: 'User A',
      phone: '+86 123 4567',
      email: 'user_a@example.org',
      group_id: w.teamB,
      role: 'user',
    });
    expect(body(saved).code).toBe(1000);
    // Team A's station changes at once, twice: its team hears of it, the moved user does not.
    for (const temperature_c of [12, 13]) {
      expect((await telemetry(env, a1.key, { at: env.clock.now - 1000, temperature_c })).statusCode).toBe(200);
      await stays.waitFor((events) => ippEvents(events, a1.id).length > 0);
    }
    await moved.ended;
    expect(Date.now() - movedAt).toBeLessThan(1500);
    expect(moved.events).toEqual([]);
    stays.close();
  });

  it("counts the read-only demo account's streams per browser session, not per account (issue 37)", async () => {
    await start({ EVENT_STREAMS_PER_USER: 2, EVENT_HEARTBEAT_MS: 60_000 });
    await createUser(env, 'demo', 'user', { groupId: w.teamA, demo: true });
    const firstVisitor = await login(env, 'demo');
    const held = [await openStream(env.app, firstVisitor), await openStream(env.app, firstVisitor)];
    expect(held.map((s) => s.status)).toEqual([200, 200]);
    const third = await openStream(env.app, firstVisitor);
    await third.ended;
    expect(third.status).toBe(429);
    // The next visitor signs in to the same account and opens the console at once: not refused for the first's streams.
    const nextVisitor = await login(env, 'demo');
    const mine = [await openStream(env.app, nextVisitor), await openStream(env.app, nextVisitor)];
    expect(mine.map((s) => s.status)).toEqual([200, 200]);
    // Bounded per session all the same.
    const extra = await openStream(env.app, nextVisitor);
    await extra.ended;
    expect(extra.status).toBe(429);
    for (const s of [...held, ...mine]) s.close();
  });

  it('shuts down promptly with streams open', async () => {
    await start();
    const streams = await Promise.all([w.tokens.user, w.tokens.ownAdmin, w.tokens.superadmin].map((t) => openStream(env.app, t)));
    const started = Date.now();
    await env.app.close();
    await Promise.all(streams.map((s) => s.ended));
    expect(Date.now() - started).toBeLessThan(5000);
    // Closed already; env.close() closes it again harmlessly.
  });

  it.runIf(dialect === 'postgres')('fans out across two server processes sharing one PostgreSQL database', async () => {
    await start();
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    // A second server process: its own pool, its own LISTEN connection, the same schema.
    const db2 = openDatabase({
      dataDir: env.config.DATA_DIR,
      databaseUrl: env.db.pg!.connectionString,
      pgSchema: env.db.pg!.schema,
    });
    const second = await buildApp({ config: env.config, db: db2, clock: env.clock.read });
    await second.listen({ port: 0, host: '127.0.0.1' });
    extra.push(async () => {
      await second.close();
      await db2.close();
    });
    await (second.events as PgEventBus).listening();
    const onSecond = await openStream(second, w.tokens.user);
    const onFirst = await openStream(env.app, w.tokens.user);
    // The device reports to the first process; a page held by the second hears of it.
    expect((await telemetry(env, a1.key, { at: env.clock.now - 1000, temperature_c: 12 })).statusCode).toBe(200);
    await onSecond.waitFor((events) => ippEvents(events, a1.id).length > 0);
    await onFirst.waitFor((events) => ippEvents(events, a1.id).length > 0);
    // Once each, not once per process.
    await new Promise((r) => setTimeout(r, 600));
    expect(ippEvents(onSecond.events, a1.id)).toHaveLength(1);
    onSecond.close();
    onFirst.close();
  });

  it.runIf(dialect === 'postgres')(
    'ends a stream held by another process within a second of the sign-out (issue 37)',
    async () => {
      await start({ EVENT_HEARTBEAT_MS: 60_000 });
      const db2 = openDatabase({
        dataDir: env.config.DATA_DIR,
        databaseUrl: env.db.pg!.connectionString,
        pgSchema: env.db.pg!.schema,
      });
      const second = await buildApp({ config: env.config, db: db2, clock: env.clock.read });
      await second.listen({ port: 0, host: '127.0.0.1' });
      extra.push(async () => {
        await second.close();
        await db2.close();
      });
      const onSecond = await openStream(second, w.tokens.user);
      expect(onSecond.status).toBe(200);
      // The page signs out through the first process; the second ends the stream it holds.
      const signedOutAt = Date.now();
      expect(body(await call(env, w.tokens.user, 'GET', '/api/wyrbac/login/logout')).code).toBe(1000);
      await onSecond.ended;
      expect(Date.now() - signedOutAt).toBeLessThan(1500);
      expect(second.liveStreams.size).toBe(0);
    },
  );
});
