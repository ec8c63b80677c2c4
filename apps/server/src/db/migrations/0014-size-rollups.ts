import { sql, type Kysely } from 'kysely';
import { sizeClassOf } from '@ipp/contracts';
import type { DialectName } from '../database.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Size rollups for the ecology views (issue 22, docs/ecology.md): live ROIs and their summed biovolume per station,
 * hour (or statistics day), class and size class (an octave of biovolume in px³; -1 = no measured object). The
 * ROI's biovolume is kept on its row (`rois.biovolume_px3`, copied from its features) so every change of an ROI
 * reads it under the row lock it already takes, as it reads the class. Existing ROIs are rolled up here, in id
 * order, a chunk at a time.
 */
export function sizeRollupsMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('rois').addColumn('biovolume_px3', 'double precision').execute();
      const clustered = <T extends { modifyEnd(node: ReturnType<typeof sql>): T }>(table: T): T =>
        dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
      for (const [table, time] of [
        ['roi_size_hour', 'hour'],
        ['roi_size_day', 'day'],
      ] as const) {
        await clustered(
          db.schema
            .createTable(table)
            .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
            .addColumn(time, 'bigint', (c) => c.notNull())
            .addColumn('class_key', 'integer', (c) => c.notNull())
            .addColumn('size_class', 'integer', (c) => c.notNull())
            .addColumn('n', 'integer', (c) => c.notNull())
            .addColumn('bv_px3', 'double precision', (c) => c.notNull())
            .addPrimaryKeyConstraint(`${table}_pk`, ['ipp_id', time, 'class_key', 'size_class']),
        ).execute();
      }
      await sql`update rois set biovolume_px3 = (select f.biovolume from roi_features f where f.roi_id = rois.id)`.execute(db);

      const k = db as unknown as Kysely<{
        rois: {
          id: number;
          ipp_id: number;
          roi_time: number;
          class_id: number | null;
          biovolume_px3: number | null;
          deleted_at: number | null;
        };
        roi_size_hour: { ipp_id: number; hour: number; class_key: number; size_class: number; n: number; bv_px3: number };
        rollup_meta: { key: string; value: string };
      }>;
      let after = 0;
      for (;;) {
        const rows = await k
          .selectFrom('rois')
          .select(['id', 'ipp_id', 'roi_time', 'class_id', 'biovolume_px3'])
          .where('id', '>', after)
          .where('deleted_at', 'is', null)
          .orderBy('id')
          .limit(20_000)
          .execute();
        if (rows.length === 0) break;
        after = rows[rows.length - 1]!.id;
        const sums = new Map<string, { n: number; bv: number }>();
        for (const r of rows) {
          const key = `${r.ipp_id}:${Math.floor(Number(r.roi_time) / HOUR_MS) * HOUR_MS}:${r.class_id ?? 0}:${sizeClassOf(r.biovolume_px3)}`;
          const sum = sums.get(key) ?? { n: 0, bv: 0 };
          sum.n += 1;
          sum.bv += r.biovolume_px3 !== null && r.biovolume_px3 > 0 ? r.biovolume_px3 : 0;
          sums.set(key, sum);
        }
        const values = [...sums].map(([key, s]) => {
          const [ipp_id, hour, class_key, size_class] = key.split(':').map(Number);
          return { ipp_id: ipp_id!, hour: hour!, class_key: class_key!, size_class: size_class!, n: s.n, bv_px3: s.bv };
        });
        for (let i = 0; i < values.length; i += 200) {
          await k
            .insertInto('roi_size_hour')
            .values(values.slice(i, i + 200))
            .onConflict((oc) =>
              oc.columns(['ipp_id', 'hour', 'class_key', 'size_class']).doUpdateSet({
                n: sql`roi_size_hour.n + excluded.n`,
                bv_px3: sql`roi_size_hour.bv_px3 + excluded.bv_px3`,
              }),
            )
            .execute();
        }
      }
      // Days at the offset the other day rollups were built with (none yet: the server builds them all at start).
      const meta = await k.selectFrom('rollup_meta').select('value').where('key', '=', 'day_offset_hours').executeTakeFirst();
      if (meta) {
        const offset = Number(meta.value) * HOUR_MS;
        const day = sql`((hour + ${sql.lit(offset)}) / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)} - ${sql.lit(offset)}`;
        await sql`insert into roi_size_day (ipp_id, day, class_key, size_class, n, bv_px3)
          select ipp_id, ${day}, class_key, size_class, sum(n), sum(bv_px3) from roi_size_hour
          group by ipp_id, ${day}, class_key, size_class`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('roi_size_day').execute();
      await db.schema.dropTable('roi_size_hour').execute();
      await db.schema.alterTable('rois').dropColumn('biovolume_px3').execute();
    },
  };
}
