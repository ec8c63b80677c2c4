import { sql } from 'kysely';

/** Rollup time keys and the SQL shared by the rollup writers (no imports from them: both import this). */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const hourOf = (time: number) => Math.floor(time / HOUR_MS) * HOUR_MS;
/** Start of the statistics day holding `time`, for days starting at UTC+offsetHours. */
export const dayOf = (time: number, offsetHours: number) => {
  const offset = offsetHours * HOUR_MS;
  return Math.floor((time + offset) / DAY_MS) * DAY_MS - offset;
};

/**
 * In an upsert's update: the smaller (`<`) or larger (`>`) of the stored and the new value of `column`, either possibly
 * null (then the other).
 */
export function keepExtreme(table: string, column: string, op: '<' | '>') {
  const [t, c, o] = [sql.raw(table), sql.raw(column), sql.raw(op)];
  return sql<number | null>`case when excluded.${c} is null then ${t}.${c} when ${t}.${c} is null then excluded.${c}
      when excluded.${c} ${o} ${t}.${c} then excluded.${c} else ${t}.${c} end`;
}
