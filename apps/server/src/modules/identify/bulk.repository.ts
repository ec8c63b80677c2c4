import type { Kysely } from 'kysely';
import { idChunks } from '../../db/query-helpers.ts';
import type { Database } from '../../db/schema.ts';

/** How many of these ROIs are in one of the review states (1 pending, 2 approved, 3 rejected). */
export async function countInReviewStates(db: Kysely<Database>, ids: readonly number[], states: readonly number[]) {
  let held = 0;
  for (const part of idChunks(ids)) {
    const row = await db
      .selectFrom('rois')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('id', 'in', part)
      .where('review_status', 'in', [...states])
      .executeTakeFirstOrThrow();
    held += Number(row.n);
  }
  return held;
}
