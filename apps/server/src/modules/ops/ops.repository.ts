import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** The database answers at all (readiness). */
export async function ping(db: Db) {
  await sql`select 1`.execute(db.kysely);
}

/** What is read at scrape time: a few small counts (indexed or tiny tables) and in-memory figures. */
export async function gauges({ db, liveStreams }: { db: Db; liveStreams: () => number }) {
  const k = db.kysely;
  const jobs = await k
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const outbox = await k
    .selectFrom('alarm_deliveries')
    .select(['channel', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('delivered_at', 'is', null)
    .where('failed_at', 'is', null)
    .groupBy('channel')
    .execute();
  const failed = await k
    .selectFrom('alarm_deliveries')
    .select(['channel', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('failed_at', 'is not', null)
    .groupBy('channel')
    .execute();
  const of = <R extends { n: number | string }>(rows: R[], pick: (r: R) => boolean) =>
    rows.filter(pick).reduce((sum, r) => sum + Number(r.n), 0);
  const pool = db.poolStats?.();
  return [
    {
      name: 'ipp_jobs',
      help: 'Recognition jobs (re-identify, train) waiting or running, all teams.',
      samples: ['queued', 'running'].map((status) => ({
        labels: { status },
        value: of(jobs, (r) => r.status === status),
      })),
    },
    {
      name: 'ipp_alarm_outbox',
      help: 'Alarm notices waiting to be sent or retried (pending) and given up after every retry (failed).',
      samples: ['webhook', 'email'].flatMap((channel) => [
        { labels: { channel, state: 'pending' }, value: of(outbox, (r) => r.channel === channel) },
        { labels: { channel, state: 'failed' }, value: of(failed, (r) => r.channel === channel) },
      ]),
    },
    { name: 'ipp_live_streams', help: 'Open live event streams (console pages).', samples: [{ value: liveStreams() }] },
    ...(pool
      ? [
          {
            name: 'ipp_db_pool_connections',
            help: 'PostgreSQL pool connections: all, idle, and callers waiting for one.',
            samples: [
              { labels: { state: 'total' }, value: pool.total },
              { labels: { state: 'idle' }, value: pool.idle },
              { labels: { state: 'waiting' }, value: pool.waiting },
            ],
          },
        ]
      : []),
  ];
}
