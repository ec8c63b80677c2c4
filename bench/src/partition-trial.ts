/**
 * Issue 39's partitioning trial (bench:scale --partition): a copy of the ROI table partitioned by month of roi_time,
 * with the same indexes where PostgreSQL allows them; the identify pages' own SQL (captured from the API, replayed on a
 * raw connection) against the table and against the copy; and what retiring the oldest month costs each way.
 * Everything it makes is dropped at the end; the ROI table itself is never changed (its DELETE is rolled back).
 */
import pg from 'pg';
import { IDENTIFY, get, type Fleet, median, ms } from './scale-fleet.ts';

const MONTH_TABLE = 'rois_by_month';

/** UTC month starts from the month of `lo` to the first after `hi`. */
function monthBounds(lo: number, hi: number) {
  const d = new Date(lo);
  const bounds = [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)];
  while (bounds[bounds.length - 1]! <= hi) {
    const last = new Date(bounds[bounds.length - 1]!);
    bounds.push(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 1));
  }
  return bounds;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

async function buildCopy(client: pg.Client) {
  const { rows } = await client.query<{ lo: string; hi: string }>('select min(roi_time) as lo, max(roi_time) as hi from rois');
  const bounds = monthBounds(Number(rows[0]!.lo), Number(rows[0]!.hi));
  await client.query(`drop table if exists ${MONTH_TABLE} cascade`);
  await client.query(`create table ${MONTH_TABLE} (like rois including defaults) partition by range (roi_time)`);
  for (let i = 0; i + 1 < bounds.length; i++) {
    await client.query(
      `create table ${MONTH_TABLE}_${i} partition of ${MONTH_TABLE} for values from (${bounds[i]}) to (${bounds[i + 1]})`,
    );
  }
  const [, copyMs] = await timed(() => client.query(`insert into ${MONTH_TABLE} select * from rois`));
  const notes: string[] = [];
  const indexes = await client.query<{ name: string; def: string }>(
    `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'rois'`,
  );
  const [, indexMs] = await timed(async () => {
    for (const index of indexes.rows) {
      const def = index.def
        .replace(/ ON (\w+\.)?rois /, ` ON ${MONTH_TABLE} `)
        .replace(/INDEX (\S+) ON/, `INDEX ${index.name}_m ON`);
      try {
        await client.query(def);
      } catch (e) {
        // A unique index must contain the partition key: record it, keep the index without uniqueness.
        notes.push(`${index.name}: ${(e as Error).message}`);
        await client.query(def.replace('UNIQUE INDEX', 'INDEX'));
      }
    }
  });
  await client.query(`analyze ${MONTH_TABLE}`);
  // The first month is partial (the fleet's year starts within it): retire it and the first whole month.
  return { months: bounds.length - 1, copyMs, indexMs, notes, retireBefore: bounds[2]! };
}

/** The statements one API call ran, captured from Kysely's log. */
async function statementsOf(f: Fleet, url: string) {
  f.captured = [];
  f.capturing = true;
  await get(f, url);
  f.capturing = false;
  return f.captured;
}

export async function tryPartitioning(f: Fleet, runs: number, stations: number) {
  const client = new pg.Client({ connectionString: f.url });
  await client.connect();
  try {
    console.log(`\nPartitioning trial on the ${f.rois.toLocaleString('en')}-ROI fleet: ${MONTH_TABLE}, by month of roi_time`);
    const copy = await buildCopy(client);
    console.log(
      `- ${copy.months} monthly partitions; copying the rows took ${(copy.copyMs / 1000).toFixed(0)} s, the indexes ${(copy.indexMs / 1000).toFixed(0)} s`,
    );
    for (const note of copy.notes) console.log(`- refused: ${note}`);

    console.log(
      '\n| identify page (its SQL, median of the statements of one call) | one table | by month | by month / one table |',
    );
    console.log('|---|---|---|---|');
    for (const page of IDENTIFY) {
      const plain: number[] = [];
      const parted: number[] = [];
      for (let i = 0; i < runs + 3; i++) {
        const station = 1 + (i % stations);
        const statements = await statementsOf(f, page.url(f, station));
        for (const table of i % 2 ? ['rois', MONTH_TABLE] : [MONTH_TABLE, 'rois']) {
          const [, took] = await timed(async () => {
            for (const s of statements) await client.query(s.sql.replaceAll('"rois"', `"${table}"`), s.params as unknown[]);
          });
          if (i >= 3) (table === 'rois' ? plain : parted).push(took);
        }
      }
      const [a, b] = [median(plain), median(parted)];
      console.log(`| ${page.name} | ${ms(a)} | ${ms(b)} | ${(b / a).toFixed(2)} |`);
    }

    // Retiring the oldest data: a DELETE on the one table against detaching and dropping partitions (both rolled back).
    const cutoff = copy.retireBefore;
    await client.query('begin');
    const [deleted, deleteMs] = await timed(() => client.query('delete from rois where roi_time < $1', [cutoff]));
    await client.query('rollback');
    await client.query('begin');
    const [, dropMs] = await timed(async () => {
      for (const part of [0, 1]) {
        await client.query(`alter table ${MONTH_TABLE} detach partition ${MONTH_TABLE}_${part}`);
        await client.query(`drop table ${MONTH_TABLE}_${part}`);
      }
    });
    await client.query('rollback');
    console.log(
      `\nRetiring the oldest month and a part (${(deleted.rowCount ?? 0).toLocaleString('en')} ROIs): DELETE on the one table ${ms(deleteMs)} ` +
        `(rolled back), detach + drop of their two partitions ${ms(dropMs)} (rolled back).`,
    );
  } finally {
    await client.query(`drop table if exists ${MONTH_TABLE} cascade`).catch(() => undefined);
    await client.end();
  }
}
