import type { Kysely } from 'kysely';
import { IPP_CONFIG_KEYS } from '@ipp/contracts';
import type { DialectName } from '../database.ts';
import { withIdColumn } from './column-types.ts';

/**
 * Every configuration an instrument was given (issue 23, "Configuration audit"): one row per configuration version,
 * with the whole configuration, who set it (their account name kept, so the row outlives the user), when, how
 * (register, edit, apply to several, or this migration), and when the device reported running it. The old → new
 * of a change is the difference to the version before. Existing instruments get one row: their configuration now,
 * dated when the instrument was last saved, by nobody known.
 */
export function configHistoryMigration(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('ipp_config_history'), dialect)
        .addColumn('ipp_id', 'integer', (c) => c.notNull().references('ipps.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        .addColumn('changed_by', 'integer')
        .addColumn('changed_by_name', 'varchar(64)')
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('applied_at', 'bigint')
        .addUniqueConstraint('ipp_config_history_version', ['ipp_id', 'version'])
        .execute();
      const k = db as unknown as Kysely<{
        ipps: {
          id: number;
          config: string;
          config_version: number;
          applied_config: string | null;
          applied_at: number | null;
          updated_at: number;
        };
        ipp_config_history: {
          ipp_id: number;
          version: number;
          config: string;
          source: string;
          changed_at: number;
          applied_at: number | null;
        };
      }>;
      const ipps = await k
        .selectFrom('ipps')
        .select(['id', 'config', 'config_version', 'applied_config', 'applied_at', 'updated_at'])
        .execute();
      for (const ipp of ipps) {
        const config = JSON.parse(ipp.config) as Record<string, unknown>;
        const applied = ipp.applied_config === null ? null : (JSON.parse(ipp.applied_config) as Record<string, unknown>);
        const running =
          applied !== null && IPP_CONFIG_KEYS.every((key) => config[key] === undefined || applied[key] === config[key]);
        await k
          .insertInto('ipp_config_history')
          .values({
            ipp_id: ipp.id,
            version: Number(ipp.config_version),
            config: ipp.config,
            source: 'migration',
            changed_at: Number(ipp.updated_at),
            applied_at: running && ipp.applied_at !== null ? Number(ipp.applied_at) : null,
          })
          .execute();
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('ipp_config_history').execute();
    },
  };
}
