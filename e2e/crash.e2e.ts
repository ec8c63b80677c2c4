import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pngOf } from '../apps/server/test/helpers/device.ts';
import { login, registerStation } from './support/api.ts';
import {
  ADMIN_PASSWORD,
  createDatabase,
  PG_URL,
  pgReachable,
  startServer,
  type Database,
  type RunningServer,
} from './support/server.ts';

const hasPg = await pgReachable();
if (!hasPg) {
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required in CI but ${PG_URL} is not reachable`);
  console.warn(`\n*** SKIPPING the PostgreSQL half of the crash test: ${PG_URL} is not reachable.\n`);
}

const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const INSTRUMENTS = 4;
const BLOB = /^([0-9a-f]{64})\.(png|jpg|webp|thumb\.webp|enh\.png)$/;

/** The database as the test reads it, beside the running (or killed) server. */
interface Inspect {
  integrity(): Promise<string[]>;
  rows(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

async function inspector(dialect: 'sqlite' | 'postgres', dataDir: string, databaseUrl?: string): Promise<Inspect> {
  if (dialect === 'sqlite') {
    const db = new SQLite(path.join(dataDir, 'ipp-console.sqlite'), { readonly: true });
    return {
      integrity: async () => {
        const out = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
        return out.map((r) => r.integrity_check).filter((r) => r !== 'ok');
      },
      rows: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('create extension if not exists amcheck');
  return {
    // amcheck: every B-tree index of the console's tables, with the heap cross-check (each heap tuple in its index).
    integrity: async () => {
      const indexes = await client.query<{ name: string }>(
        `select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
         join pg_namespace n on n.oid = c.relnamespace where a.amname = 'btree' and n.nspname = 'public'`,
      );
      const problems: string[] = [];
      for (const { name } of indexes.rows) {
        try {
          await client.query('select bt_index_check($1::regclass, true)', [name]);
        } catch (error) {
          problems.push(`${name}: ${(error as Error).message}`);
        }
      }
      if (indexes.rows.length === 0) problems.push('no index checked');
      return problems;
    },
    rows: async (sql) => (await client.query(sql)).rows as Record<string, unknown>[],
    close: () => client.end(),
  };
}

/** Every image file under DATA_DIR/blobs by content hash, and the writers' leftovers. */
function blobFiles(dataDir: string) {
  const byHash = new Map<string, string[]>();
  const leftovers: string[] = [];
  const root = path.join(dataDir, 'blobs');
  if (!fs.existsSync(root)) return { byHash, leftovers };
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const match = BLOB.exec(entry.name);
    if (match) byHash.set(match[1]!, [...(byHash.get(match[1]!) ?? []), entry.name]);
    else leftovers.push(entry.name);
  }
  return { byHash, leftovers };
}

const key = (r: Record<string, unknown>, ...cols: string[]) => cols.map((c) => String(r[c])).join(':');
const counts = (rows: Record<string, unknown>[], ...cols: string[]) =>
  Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [key(r, ...cols), Number(r.n)]));

async function waitForLog(server: RunningServer, text: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!server.log().includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in ${timeoutMs} ms:\n${server.log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Ack {
  id: number;
  sha256: string;
}

/**
 * Nothing lost (issue 8): the real server (`npm start`'s entry point) ingests from several instruments over HTTP and is
 * killed with SIGKILL at a random moment, KILLS times. After each restart and the recovery pass: every ROI it
 * acknowledged is there with its files, no row names a missing file, no file is left without a row, the database
 * passes its integrity check (SQLite's integrity_check; PostgreSQL's amcheck on every B-tree index, heap included),
 * and the rollups equal a raw count of the rows.
 */
describe.each([
  ['sqlite', true],
  ['postgres', hasPg],
] as const)('SIGKILL during ingest on %s', (dialect, available) => {
  let server: RunningServer | null = null;
  let database: Database | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ipp-e2e-crash-${dialect}-`));

  afterAll(async () => {
    await server?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it.skipIf(!available)(
    `keeps every acknowledged ROI through ${KILLS} kills`,
    async () => {
      if (dialect === 'postgres') database = await createDatabase('ipp_e2e_crash');
      const databaseUrl = database?.url;
      const env = { ORPHAN_GRACE_MINUTES: '0', SIMILARITY_PRELOAD: 'off', JOB_WORKER: 'off' };
      const start = async () => {
        server = await startServer({ dataDir, databaseUrl, env });
        // The recovery pass after the start: orphan files of the crash swept before anything is checked.
        await waitForLog(server, 'Orphan sweep:');
        return server;
      };

      let s = await start();
      const token = await login(s.url, 'admin', ADMIN_PASSWORD);
      const keys: string[] = [];
      for (let i = 0; i < INSTRUMENTS; i++) {
        const saved = await registerStation(s.url, token, {
          dev_id: `CR${i}`,
          site_name: `Crash ${i}`,
          longitude: 120 + i,
          latitude: 36,
        });
        keys.push(saved.device_key);
      }

      const acked = new Map<number, Ack>();
      let seed = 0;
      let sent = 0;
      let swept = 0;
      const killedAfter: number[] = [];

      const verify = async (round: number) => {
        const db = await inspector(dialect, dataDir, databaseUrl);
        try {
          expect(await db.integrity(), `integrity after kill ${round}`).toEqual([]);
          const rows = (await db.rows('select id, sha256, mime from rois')) as { id: number; sha256: string; mime: string }[];
          const byId = new Map(rows.map((r) => [Number(r.id), r]));
          const lost = [...acked.values()].filter((a) => byId.get(a.id)?.sha256 !== a.sha256);
          expect(lost, `acknowledged ROIs missing after kill ${round}`).toEqual([]);
          const { byHash, leftovers } = blobFiles(dataDir);
          const ext = (mime: string) => (mime === 'image/jpeg' ? 'jpg' : mime === 'image/webp' ? 'webp' : 'png');
          const missing = rows.filter((r) => {
            const names = byHash.get(r.sha256) ?? [];
            return !names.includes(`${r.sha256}.${ext(r.mime)}`) || !names.includes(`${r.sha256}.thumb.webp`);
          });
          expect(
            missing.map((r) => r.id),
            `rows naming a missing file after kill ${round}`,
          ).toEqual([]);
          const named = new Set(rows.map((r) => r.sha256));
          const orphans = [...byHash.keys()].filter((h) => !named.has(h));
          expect(orphans, `orphan files left after the recovery pass (kill ${round})`).toEqual([]);
          expect(leftovers, `temporary files left after the recovery pass (kill ${round})`).toEqual([]);
          // Rollups against a raw count of the live rows.
          const raw = (group: string, cols: string) =>
            db.rows(`select ${cols}, count(*) as n from rois where deleted_at is null group by ${group}`);
          const classKey = 'coalesce(class_id, 0)';
          expect(counts(await db.rows('select ipp_id, class_key, n from roi_totals'), 'ipp_id', 'class_key')).toEqual(
            counts(await raw(`ipp_id, ${classKey}`, `ipp_id, ${classKey} as class_key`), 'ipp_id', 'class_key'),
          );
          const kind = 'case when hi = 1 then 2 when roi_labelindex = 0 then 0 else 1 end';
          expect(
            counts(await db.rows('select ipp_id, kind, class_key, n from roi_class_counts'), 'ipp_id', 'kind', 'class_key'),
          ).toEqual(
            counts(
              await raw(`ipp_id, ${kind}, ${classKey}`, `ipp_id, ${kind} as kind, ${classKey} as class_key`),
              'ipp_id',
              'kind',
              'class_key',
            ),
          );
          const hour = 'roi_time - (roi_time % 3600000)';
          expect(counts(await db.rows('select ipp_id, hour, n from roi_count_hour'), 'ipp_id', 'hour')).toEqual(
            counts(await raw(`ipp_id, ${hour}`, `ipp_id, ${hour} as hour`), 'ipp_id', 'hour'),
          );
          return rows.length;
        } finally {
          await db.close();
        }
      };

      for (let round = 1; round <= KILLS; round++) {
        const base = s.url;
        let stop = false;
        const instrument = async (k: string) => {
          while (!stop) {
            const png = await pngOf(++seed, 40);
            const form = new FormData();
            form.set('captured_at', String(Date.now() - 60_000));
            form.set('label_index', String(seed % 4));
            form.set('size_px', '800');
            form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'roi.png');
            sent++;
            try {
              const res = await fetch(`${base}/api/device/rois`, { method: 'POST', headers: { 'x-device-key': k }, body: form });
              const envelope = (await res.json()) as { code: number; data: { roi_id: number; sha256: string; stored: boolean } };
              if (envelope.code === 1000)
                acked.set(envelope.data.roi_id, { id: envelope.data.roi_id, sha256: envelope.data.sha256 });
            } catch {
              return; // the server died under this request: unacknowledged, so nothing is owed
            }
          }
        };
        const running = keys.map((k) => instrument(k));
        const delay = 200 + Math.floor(Math.random() * 1300);
        killedAfter.push(delay);
        await new Promise((r) => setTimeout(r, delay));
        await s.kill();
        stop = true;
        await Promise.all(running);
        s = await start();
        const line = /Orphan sweep: \d+ image files checked, (\d+) orphan/.exec(s.log());
        swept += Number(line?.[1] ?? 0);
        await verify(round);
      }
      const found = await verify(KILLS);
      console.log(
        `crash test on ${dialect}: ${KILLS} SIGKILLs (after ${Math.min(...killedAfter)}–${Math.max(...killedAfter)} ms of ingest), ` +
          `${sent} uploads sent, ${acked.size} acknowledged, ${acked.size} of them found after the restarts (0 lost), ` +
          `${found} ROIs in the database, ${swept} orphan files swept by the recovery passes`,
      );
      expect(acked.size).toBeGreaterThan(KILLS);
    },
    20 * 60_000,
  );
});
