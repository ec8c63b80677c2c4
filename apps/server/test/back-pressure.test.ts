import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IngestGate, MAX_RETRY_AFTER_S } from '../src/modules/device/ingest-gate.ts';
import { AppError } from '../src/http/app-error.ts';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, roiMultipart, telemetry, uploadRoi } from './helpers/device.ts';

const refusal = (fn: () => unknown): AppError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('IngestGate (admission of instrument image uploads)', () => {
  it('refuses an instrument past its own bound with 429, and the process past its bound with 503', () => {
    let now = 0;
    const gate = new IngestGate({ inFlight: 3, perDevice: 2 }, () => now);
    const a1 = gate.enter(1);
    gate.enter(1);
    const tooMany = refusal(() => gate.enter(1));
    expect(tooMany).toMatchObject({ code: 1003, key: 'tooManyUploads', status: 429, params: { max: 2, seconds: 1 } });
    gate.enter(2);
    // Full of uploads admitted a moment ago, nothing answered yet (a burst on an idle server): one second.
    now += 300;
    const busy = refusal(() => gate.enter(3));
    expect(busy).toMatchObject({ code: 1003, key: 'ingestBusy', status: 503, params: { seconds: 1 } });
    // Still nothing answered 12.5 s later (the work is stuck): as long as the oldest has waited.
    now += 12_200;
    expect(refusal(() => gate.enter(3)).params.seconds).toBe(13);
    now += 60_000;
    expect(refusal(() => gate.enter(3)).params.seconds).toBe(MAX_RETRY_AFTER_S);
    expect(gate.inProgress).toBe(3);
    // A release frees its place once, however often it is called.
    a1();
    a1();
    expect(gate.inProgress).toBe(2);
    const a3 = gate.enter(1);
    expect(gate.inProgress).toBe(3);
    a3();
    expect(gate.inProgress).toBe(2);
  });

  it('asks to retry after the time the uploads in progress take at the recent answer rate', () => {
    let now = 0;
    const gate = new IngestGate({ inFlight: 20, perDevice: 100 }, () => now);
    const held = Array.from({ length: 20 }, () => gate.enter(7));
    // Ten answers over 1.8 seconds (5.6 a second) with twenty in progress: 3.6 s, asked as 4.
    for (let i = 0; i < 10; i++) {
      now += 200;
      held[i]!();
      held[i] = gate.enter(7);
    }
    expect(refusal(() => gate.enter(8)).params.seconds).toBe(4);
    // Twenty answers within a second (the older ones out of the ten-second window): at least one second.
    now += 10_001;
    for (let i = 0; i < 20; i++) {
      now += 1;
      held[i]!();
      held[i] = gate.enter(7);
    }
    expect(refusal(() => gate.enter(8)).params.seconds).toBe(1);
    // Ten seconds without an answer: as long as the oldest upload in progress has waited (10.02 s).
    now += 10_001;
    expect(refusal(() => gate.enter(8)).params.seconds).toBe(11);
  });
});

describe.each(dialects)('back-pressure on instrument uploads on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let release: () => void;
  let held: Promise<void>;
  let arrived = 0;
  beforeEach(async () => {
    held = new Promise((resolve) => (release = resolve));
    arrived = 0;
    env = await buildTestApp(dialect, {
      config: { INGEST_IN_FLIGHT: 3, INGEST_PER_DEVICE: 2 },
      beforeReady(app) {
        // Admitted uploads wait here (after the gate, before their body is read) until the test lets them go.
        app.addHook('preHandler', async (request) => {
          if (request.url !== '/api/device/rois') return;
          arrived++;
          await held;
        });
      },
    });
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  const rowsOf = async (ippId: number) =>
    (await env.db.kysely.selectFrom('rois').select('sha256').where('ipp_id', '=', ippId).execute()).length;
  const fields = (at: number) => ({ captured_at: at, label_index: 1, size_px: 2400 });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(check()).toBe(true);
  };

  it('answers 503 with Retry-After when saturated and 429 to an instrument past its share; nothing refused is stored, and every image sent again is', async () => {
    const a = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'BP-A');
    const b = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'BP-B');
    const c = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'BP-C');
    const t0 = env.clock.now - 60_000;
    const png = await Promise.all([1, 2, 3, 4, 5, 6].map((seed) => pngOf(seed, 32)));
    // A has two in progress (its share), B one: the process is full.
    const inProgress = [uploadRoi(env, a.key, fields(t0), png[0]!), uploadRoi(env, a.key, fields(t0 + 1), png[1]!)];
    inProgress.push(uploadRoi(env, b.key, fields(t0 + 2), png[2]!));
    await until(() => arrived === 3);

    const third = await uploadRoi(env, a.key, fields(t0 + 3), png[3]!, 'zh');
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(body(third)).toMatchObject({ code: 1003, msg: '该仪器已有 2 个图像正在上传，请 1 秒后重新发送（未保存）' });

    // Another team's instrument: the server is full for everyone, and says when to come back.
    const full = await uploadRoi(env, c.key, fields(t0 + 4), png[4]!);
    expect(full.statusCode).toBe(503);
    const seconds = Number(full.headers['retry-after']);
    expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_RETRY_AFTER_S).toBe(true);
    expect(body(full)).toMatchObject({
      code: 1003,
      msg: `The server is working on as many images as it can; send this one again in ${seconds} seconds (it was not stored)`,
    });
    // Refused before its body was read: it never reached the handler.
    expect(arrived).toBe(3);

    // Telemetry is never refused for images in progress: a station stays online while the server catches up.
    const sample = await telemetry(env, c.key, { at: env.clock.now - 1000, temperature_c: 12 });
    expect(body(sample).code).toBe(1000);

    // A bad key is still a bad key, not "busy".
    expect((await uploadRoi(env, 'not-a-key', fields(t0), png[5]!)).statusCode).toBe(401);

    release();
    expect((await Promise.all(inProgress)).map((r) => [r.statusCode, body(r).code])).toEqual([
      [200, 1000],
      [200, 1000],
      [200, 1000],
    ]);
    expect([await rowsOf(a.id), await rowsOf(b.id), await rowsOf(c.id)]).toEqual([2, 1, 0]);
    expect(env.app.ingestGate.inProgress).toBe(0);

    // The refused images sent again are stored, once.
    const again = [await uploadRoi(env, a.key, fields(t0 + 3), png[3]!), await uploadRoi(env, c.key, fields(t0 + 4), png[4]!)];
    expect(again.map((r) => [r.statusCode, (body(r).data as { stored: boolean }).stored])).toEqual([
      [200, true],
      [200, true],
    ]);
    expect([await rowsOf(a.id), await rowsOf(c.id)]).toEqual([3, 1]);
  });

  it('frees the place of an upload whose answer failed or whose client went away', async () => {
    release();
    const a = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'BP-A');
    // Not an image, empty, bad fields: each answered with its own error and counted out.
    const answers = await Promise.all([
      uploadRoi(env, a.key, fields(env.clock.now), Buffer.from('not an image')),
      uploadRoi(env, a.key, fields(env.clock.now), null),
    ]);
    answers.push(await uploadRoi(env, a.key, { captured_at: 'soon', size_px: 10 }, await pngOf(9)));
    expect(answers.map((r) => r.statusCode)).toEqual([415, 400, 400]);
    expect(env.app.ingestGate.inProgress).toBe(0);

    // A client that sends the start of an upload and goes away: its place is freed when the connection closes.
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = env.app.server.address() as { port: number };
    const { payload, headers } = roiMultipart(fields(env.clock.now), await pngOf(10, 64));
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/device/rois HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Device-Key: ${a.key}\r\n` +
        `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload.subarray(0, 100));
    await until(() => env.app.ingestGate.inProgress === 1);
    socket.destroy();
    await until(() => env.app.ingestGate.inProgress === 0);

    // A client that gives up while its image is being stored: the place stays taken until the work ends.
    let store!: () => void;
    const storing = new Promise<void>((resolve) => (store = resolve));
    let working = false;
    const ingestRoi = env.app.devices.ingestRoi.bind(env.app.devices);
    env.app.devices.ingestRoi = async (...args) => {
      working = true;
      await storing;
      return ingestRoi(...args);
    };
    const whole = roiMultipart(fields(env.clock.now - 5), await pngOf(11, 64));
    const impatient = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => impatient.once('connect', resolve));
    impatient.write(
      `POST /api/device/rois HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Device-Key: ${a.key}\r\n` +
        `Content-Type: ${whole.headers['content-type']}\r\nContent-Length: ${whole.payload.length}\r\n\r\n`,
    );
    impatient.write(whole.payload);
    await until(() => working);
    impatient.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(env.app.ingestGate.inProgress).toBe(1);
    store();
    await until(() => env.app.ingestGate.inProgress === 0);
    // Its image was stored all the same (a retry would answer stored: false).
    expect(await rowsOf(a.id)).toBe(1);
    // Three in a row from one instrument with a share of two: each went through once the one before had answered.
    for (let i = 0; i < 3; i++)
      expect((await uploadRoi(env, a.key, fields(env.clock.now - i), await pngOf(20 + i))).statusCode).toBe(200);
    expect(env.app.ingestGate.inProgress).toBe(0);
  });
});
