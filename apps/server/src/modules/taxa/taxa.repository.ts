import type { Kysely } from 'kysely';
import type { ClassTaxaTable, Database } from '../../db/schema.ts';

/** A team's own mappings, by class id. */
export async function teamTaxa(k: Kysely<Database>, team: number): Promise<Map<number, ClassTaxaTable>> {
  const rows = await k.selectFrom('class_taxa').selectAll().where('group_id', '=', team).execute();
  return new Map(rows.map((r) => [r.class_id, r]));
}

export async function saveTeamTaxon(k: Kysely<Database>, row: ClassTaxaTable) {
  const { group_id: _g, class_id: _c, ...changes } = row;
  await k
    .insertInto('class_taxa')
    .values(row)
    .onConflict((oc) => oc.columns(['group_id', 'class_id']).doUpdateSet(changes))
    .execute();
}

export async function removeTeamTaxon(k: Kysely<Database>, team: number, classId: number) {
  await k.deleteFrom('class_taxa').where('group_id', '=', team).where('class_id', '=', classId).execute();
}
