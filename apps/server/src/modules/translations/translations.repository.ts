import type { Kysely } from 'kysely';
import type { Lang } from '@ipp/contracts';
import type { Database } from '../../db/schema.ts';

export function countOverrides(db: Kysely<Database>, language: Lang) {
  return db
    .selectFrom('translations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(language, 'is not', null)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

export async function listOverrides(db: Kysely<Database>, language: Lang, offset: number, limit: number) {
  const rows = await db
    .selectFrom('translations')
    .select(['key', `${language} as text`])
    .where(language, 'is not', null)
    .orderBy('key')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: r.key, text: r.text ?? '' }));
}

export function allOverrides(db: Kysely<Database>) {
  return db.selectFrom('translations').select(['key', 'zh', 'en']).execute();
}

export async function upsertOverride(db: Kysely<Database>, key: string, zh: string | null, en: string | null, now: number) {
  if (zh === null && en === null) {
    await db.deleteFrom('translations').where('key', '=', key).execute();
    return;
  }
  await db
    .insertInto('translations')
    .values({ key, zh, en, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ zh, en, updated_at: now }))
    .execute();
}
