import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function readAllSettings(db: Kysely<Database>): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
  return Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown]));
}

export async function writeSettings(db: Kysely<Database>, values: Record<string, unknown>, now: number) {
  for (const [key, value] of Object.entries(values)) {
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
      .execute();
  }
}
