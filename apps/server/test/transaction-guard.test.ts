import { CATEGORY } from '@ipp/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryOutsideTransactionError } from '../src/db/database.ts';
import { call, buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, uploadRoi } from './helpers/device.ts';

/** Fails instead of hanging: a request that never answers is the defect these tests are about. */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  ]);

describe.each(dialects)('queries outside an open transaction on %s', (dialect) => {
  let env: TestEnv;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
  });
  afterEach(() => env.close());

  it('refuses the plain handle inside a transaction at once, and the transaction still rolls back', async () => {
    const k = env.db.kysely;
    const attempt = k.transaction().execute(async (trx) => {
      await trx.insertInto('teams').values({ name: 'inside', created_at: 1 }).execute();
      // The defect's shape: a lookup through the plain handle while the transaction holds the connection.
      await k.selectFrom('ipps').select('id').execute();
    });
    await expect(within(attempt, 5_000, 'the transaction')).rejects.toBeInstanceOf(QueryOutsideTransactionError);
    const teams = await k.selectFrom('teams').select('name').where('name', '=', 'inside').execute();
    expect(teams).toEqual([]);
  });

  it('refuses a transaction opened inside another one', async () => {
    const k = env.db.kysely;
    const attempt = k.transaction().execute(async () => {
      await k.transaction().execute(async (inner) => sql`select 1`.execute(inner));
    });
    await expect(within(attempt, 5_000, 'the nested transaction')).rejects.toBeInstanceOf(QueryOutsideTransactionError);
  });

  it('lets other callers wait for the connection and work started but not awaited run after the commit', async () => {
    const k = env.db.kysely;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let detached: Promise<unknown> | undefined;
    const tx = k.transaction().execute(async (trx) => {
      await trx.insertInto('teams').values({ name: 'held', created_at: 1 }).execute();
      // Started inside, awaited after the transaction settled: by then the plain handle is the right one.
      detached = gate.then(() => k.selectFrom('teams').select('name').where('name', '=', 'held').execute());
    });
    // Another request's query (a separate async context) is not refused; it waits its turn.
    const other = k.selectFrom('teams').select('id').execute();
    await within(tx, 5_000, 'the transaction');
    await within(other, 5_000, 'the concurrent query');
    release();
    expect(await within(detached!, 5_000, 'the detached query')).toEqual([{ name: 'held' }]);
  });
});

describe.each(dialects)('class copy into the IPP gallery (issue 20 hang) on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
  });
  afterEach(() => env.close());

  it('copies a temporary class with its images into the IPP gallery and the server keeps answering', async () => {
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1');
    const uploaded = body(
      await uploadRoi(env, a1.key, { captured_at: env.clock.now - 60_000, label_index: 1, size_px: 2500 }, await pngOf(1)),
    );
    expect(uploaded.code, JSON.stringify(uploaded)).toBe(1000);
    const roiId = (uploaded.data as { roi_id: number }).roi_id;
    const ok = async (payload: object, url: string) => {
      const res = body(await within(call(env, w.tokens.ownAdmin, 'POST', url, payload), 10_000, url));
      expect(res.code, JSON.stringify(res)).toBe(1000);
      return res.data as { roi_index_id: number; affected: number };
    };
    const tmp = await ok({ title: '101Hang', category_id: CATEGORY.TEMPORARY }, '/api/roi-index/save');
    await ok(
      { type: '51', category_id: CATEGORY.SITE, ipp_id: a1.id, roi_ids: [roiId], target_id: tmp.roi_index_id },
      '/api/roi/save-move',
    );

    // The call of the issue: before the fix it never answered, and nothing else did afterwards on SQLite.
    const copied = await ok(
      { type: 'copy', roi_index_id: tmp.roi_index_id, category_id: CATEGORY.SITE_GALLERY, ipp_id: a1.id },
      '/api/folder/operate-folder',
    );
    expect(copied.affected).toBe(1);
    const gallery = body(
      await within(
        call(env, w.tokens.ownAdmin, 'GET', `/api/roi/index?category_id=0&code=f:${copied.roi_index_id}`),
        10_000,
        'the gallery list',
      ),
    );
    expect(gallery.code).toBe(1000);
    expect(gallery.count).toBe(1);
    // Another caller, and an instrument, are still served.
    const info = body(await within(call(env, w.tokens.user, 'GET', '/api/wyrbac/login/user-info'), 10_000, 'user-info'));
    expect(info.code).toBe(1000);
    const again = body(
      await within(
        uploadRoi(env, a1.key, { captured_at: env.clock.now - 30_000, label_index: 1, size_px: 2500 }, await pngOf(2)),
        10_000,
        'an upload',
      ),
    );
    expect(again.code).toBe(1000);
  });
});
