import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FeaturePool, measureImage } from '../src/modules/recognition/feature-pool.ts';
import { decodeImage } from '../src/modules/recognition/features.ts';
import { loadFeatures } from '../src/modules/recognition/features.repository.ts';
import { VECTOR_VERSION } from '../src/modules/recognition/vector.ts';
import { buildWorld } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';
import { shapePng } from './helpers/shapes.ts';

/** Real labelled plankton images (MIT), read in place: never copied into the repository. */
const PWSSC = path.resolve(import.meta.dirname, '../../../../shared/data/pwssc-spc');
const havePwssc = fs.existsSync(PWSSC);
if (!havePwssc) console.warn(`\n*** feature-pool test uses synthetic images only: ${PWSSC} is missing\n`);

async function images(): Promise<Buffer[]> {
  const out: Buffer[] = [];
  if (havePwssc) {
    for (const cls of ['Copepod', 'Oithona', 'Chaetognatha', 'Diatom']) {
      const dir = path.join(PWSSC, cls);
      if (!fs.existsSync(dir)) continue;
      for (const f of fs.readdirSync(dir).slice(0, 6)) out.push(fs.readFileSync(path.join(dir, f)));
    }
  }
  for (const shape of ['rod', 'disc', 'ring'] as const) out.push(await shapePng(shape, 40));
  out.push(await pngOf(3, 48));
  return out;
}

describe('feature worker pool', () => {
  const pools: FeaturePool[] = [];
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('measures exactly what the event loop would, with many tasks in flight on two workers', async () => {
    const pool = new FeaturePool(2);
    pools.push(pool);
    const decoded = await Promise.all((await images()).map((b) => decodeImage(b)));
    expect(decoded.length).toBeGreaterThanOrEqual(4);
    // All at once, three rounds: tasks interleave across both workers and must still come back to their caller.
    const rounds = [0, 1, 2].flatMap(() => decoded.map((img, i) => ({ img, i, threshold: i % 2 ? 5 : undefined })));
    const results = await Promise.all(rounds.map((r) => pool.measure(r.img, r.threshold)));
    for (const [k, r] of rounds.entries()) {
      const inline = await measureImage(r.img, r.threshold);
      const got = results[k]!;
      expect(got.features.version).toBe(inline.features.version);
      expect(Array.from(got.features.values)).toEqual(Array.from(inline.features.values));
      expect(Array.from(got.sim)).toEqual(Array.from(inline.sim));
      expect(got.features.measures).toEqual(inline.features.measures);
    }
  });

  it('leaves the caller’s pixels intact (the worker gets a copy)', async () => {
    const pool = new FeaturePool(1);
    pools.push(pool);
    const img = await decodeImage(await shapePng('disc', 9));
    const before = Buffer.from(img.data);
    await pool.measure(img, undefined);
    expect(img.data.byteLength).toBe(before.length);
    expect(Buffer.from(img.data).equals(before)).toBe(true);
  });

  it('a worker that dies fails only its own tasks, and the next task gets a new worker', async () => {
    const pool = new FeaturePool(1);
    pools.push(pool);
    const img = await decodeImage(await shapePng('rod', 11));
    await pool.measure(img, undefined);
    const slot = (pool as unknown as { slots: ({ worker: { postMessage(m: unknown): void } } | null)[] }).slots[0]!;
    // The worker is told to end (as if it crashed) before it receives the next task.
    slot.worker.postMessage({ exit: 1 });
    const inFlight = pool.measure(img, undefined);
    await expect(inFlight).rejects.toThrow(/feature worker exited/);
    const again = await pool.measure(img, undefined);
    expect(Array.from(again.sim)).toEqual(Array.from((await measureImage(img, undefined)).sim));
  });

  it('warm starts every worker with its network before any image, and the images after it measure as before', async () => {
    const pool = new FeaturePool(2);
    pools.push(pool);
    const slots = () => (pool as unknown as { slots: (object | null)[] }).slots;
    expect(slots().every((s) => s === null)).toBe(true);
    await Promise.all([pool.warm(), pool.warm()]); // two callers at once: the same two workers
    expect(slots().every((s) => s !== null)).toBe(true);
    const started = [...slots()];
    const img = await decodeImage(await shapePng('disc', 7));
    const got = await pool.measure(img, undefined);
    expect(Array.from(got.sim)).toEqual(Array.from((await measureImage(img, undefined)).sim));
    expect(slots().every((s, i) => s === started[i])).toBe(true);
    await expect(new FeaturePool(0).warm()).resolves.toBeUndefined();
  });

  it('after close, a task is refused instead of hanging', async () => {
    const pool = new FeaturePool(1);
    const img = await decodeImage(await shapePng('ring', 5));
    await pool.measure(img, undefined);
    await pool.close();
    await expect(pool.measure(img, undefined)).rejects.toThrow(/closed/);
  });
});

describe('ingest through the worker pool', () => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('stores the features the event loop would have computed', async () => {
    env = await buildTestApp('sqlite', { config: { FEATURE_WORKERS: 1 } });
    const w = await buildWorld(env);
    const ipp = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const png = await shapePng('rod', 21);
    const res = await uploadRoi(env, ipp.key, { captured_at: Date.UTC(2026, 10, 22, 7, 30), label_index: 0, size_px: 30 }, png);
    expect(res.statusCode).toBe(200);
    const ack = body(res).data as { roi_id: number; stored: boolean };
    expect(ack.stored).toBe(true);
    const stored = (await loadFeatures(env.db.kysely, [ack.roi_id], VECTOR_VERSION)).get(ack.roi_id);
    expect(stored).toBeDefined();
    const inline = await measureImage(await decodeImage(png), 3);
    expect(Array.from(stored!.values)).toEqual(Array.from(inline.features.values));
    expect(Array.from(stored!.sim)).toEqual(Array.from(inline.sim));
  });
});
