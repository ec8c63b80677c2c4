import { sql } from 'kysely';

/**
 * In a rollup upsert's update (rollups and trend-rollups repositories, which both import this): the smaller (`<`) or
 * larger (`>`) of the stored and the new value of `column`, either possibly null (then the other).
 */
export function keepExtreme(table: string, column: string, op: '<' | '>') {
  const [t, c, o] = [sql.raw(table), sql.raw(column), sql.raw(op)];
  return sql<number | null>`case when excluded.${c} is null then ${t}.${c} when ${t}.${c} is null then excluded.${c}
      when excluded.${c} ${o} ${t}.${c} then excluded.${c} else ${t}.${c} end`;
}
