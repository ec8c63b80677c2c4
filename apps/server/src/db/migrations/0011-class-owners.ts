import { sql, type Kysely } from 'kysely';

/**
 * Classes get an owner, and visibility becomes each team's own (issue 20: one team's administrator could take every
 * free class number, hide a system class for everyone, or rename and delete classes other teams use;
 * docs/decisions.md "Class ownership").
 *
 * - `classes.group_id`: the team that made the class; null = shared (system classes and the superadmin's). Classes
 *   made before this step get the one team whose images carry them, else stay shared (superadmin).
 * - `class_hidden`: the classes a team hides from its plain users. The old global `classes.visible` never took effect;
 *   a class it hid is hidden for every existing team, then the column goes.
 */
export const classOwnersMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('classes')
      .addColumn('group_id', 'integer', (c) => c.references('teams.id').onDelete('set null'))
      .execute();
    await db.schema
      .createTable('class_hidden')
      .addColumn('class_id', 'integer', (c) => c.notNull().references('classes.id').onDelete('cascade'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('class_hidden_pk', ['class_id', 'group_id'])
      .execute();
    await db.schema.createIndex('class_hidden_group_idx').on('class_hidden').columns(['group_id']).execute();

    // The teams whose images (live or recycled) carry each non-system class: one pass over the images.
    const users = await sql<{ class_id: number; group_id: number }>`
      select distinct r.class_id as class_id, i.group_id as group_id
      from rois r join ipps i on i.id = r.ipp_id join classes c on c.id = r.class_id
      where c.system = 0`.execute(db);
    const teamsOf = new Map<number, Set<number>>();
    for (const row of users.rows) {
      const set = teamsOf.get(Number(row.class_id)) ?? new Set<number>();
      set.add(Number(row.group_id));
      teamsOf.set(Number(row.class_id), set);
    }
    for (const [classId, teams] of teamsOf) {
      if (teams.size !== 1) continue;
      const [groupId] = [...teams];
      await sql`update classes set group_id = ${groupId} where id = ${classId}`.execute(db);
    }

    await sql`insert into class_hidden (class_id, group_id)
      select c.id, t.id from classes c cross join teams t where c.visible = 0`.execute(db);
    await db.schema.alterTable('classes').dropColumn('visible').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('classes')
      .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.dropTable('class_hidden').execute();
    await db.schema.alterTable('classes').dropColumn('group_id').execute();
  },
};
