import { DEFAULT_IPP_CONFIG } from '@ipp/contracts';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { hashPassword } from '../../apps/server/src/security/password.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The benchmarks' fleet owner: team "Bench", its administrator `bench` / `bench-pass`, stations B1…Bn. */
export async function seedFleet(k: Kysely<Database>, stations: number, now: number) {
  const team = await k.insertInto('teams').values({ name: 'Bench', created_at: now }).returning('id').executeTakeFirstOrThrow();
  await k
    .insertInto('users')
    .values({
      account: 'bench',
      name: 'Bench',
      password_hash: await hashPassword('bench-pass', 10),
      phone: '',
      email: '',
      group_id: team.id,
      role: 'administrator',
      avatar: '',
      is_demo: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  for (let i = 1; i <= stations; i++) {
    await k
      .insertInto('ipps')
      .values({
        dev_id: `B${i}`,
        site_name: `Bench ${i}`,
        country: 'CN',
        longitude: 120,
        latitude: 36,
        group_id: team.id,
        serial_number: '',
        config: JSON.stringify(DEFAULT_IPP_CONFIG),
        device_key_hash: String(i).padStart(64, '0'),
        last_online_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return team.id;
}

/**
 * The ROI rollups and maintained counts as ingest would have left them for the rows of `rois` (the rollup property
 * test proves ingest keeps them equal to this), with statistics days starting at UTC+8.
 */
export async function buildRoiRollups(k: Kysely<Database>) {
  await sql`insert into roi_rollup_hour (ipp_id, hour, class_key, n)
    select ipp_id, (roi_time / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}, coalesce(class_id, 0), count(*) from rois group by 1, 2, 3`.execute(
    k,
  );
  await sql`insert into roi_rollup_day (ipp_id, day, class_key, n)
    select ipp_id, ((roi_time + ${sql.lit(8 * HOUR)}) / ${sql.lit(DAY)}) * ${sql.lit(DAY)} - ${sql.lit(8 * HOUR)}, coalesce(class_id, 0), count(*)
    from rois group by 1, 2, 3`.execute(k);
  await sql`insert into roi_count_hour (ipp_id, hour, n)
    select ipp_id, (roi_time / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}, count(*) from rois group by 1, 2`.execute(k);
  await sql`insert into roi_totals (ipp_id, class_key, n) select ipp_id, coalesce(class_id, 0), count(*) from rois group by 1, 2`.execute(
    k,
  );
  await sql`insert into roi_class_counts (ipp_id, kind, class_key, n)
    select ipp_id, case when hi = 1 then 2 when roi_labelindex = 0 then 0 else 1 end, coalesce(class_id, 0), count(*)
    from rois where deleted_at is null group by 1, 2, 3`.execute(k);
  // Size rollups (ecology views): size class = octave of biovolume, -1 unmeasured (the ROIs' biovolume_px3).
  const sizeClass = sql`case when biovolume_px3 is null or biovolume_px3 <= 0 then -1
    when biovolume_px3 < 1 then 0
    else cast(floor(ln(biovolume_px3) / ln(2)) as integer) end`;
  const bv = sql`coalesce(case when biovolume_px3 > 0 then biovolume_px3 end, 0)`;
  await sql`insert into roi_size_hour (ipp_id, hour, class_key, size_class, n, bv_px3)
    select ipp_id, (roi_time / ${sql.lit(HOUR)}) * ${sql.lit(HOUR)}, coalesce(class_id, 0), ${sizeClass}, count(*), sum(${bv})
    from rois where deleted_at is null group by 1, 2, 3, 4`.execute(k);
  await sql`insert into roi_size_day (ipp_id, day, class_key, size_class, n, bv_px3)
    select ipp_id, day, class_key, size_class, sum(n), sum(bv_px3) from (
      select ipp_id, ((hour + ${sql.lit(8 * HOUR)}) / ${sql.lit(DAY)}) * ${sql.lit(DAY)} - ${sql.lit(8 * HOUR)} as day, class_key,
             size_class, n, bv_px3 from roi_size_hour) d group by 1, 2, 3, 4`.execute(k);
  await k.insertInto('rollup_meta').values({ key: 'day_offset_hours', value: '8' }).execute();
}
