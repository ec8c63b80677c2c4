import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { sessionMigration } from './migrations/0001-session.ts';
import { adminMigration } from './migrations/0002-admin.ts';
import { ippsMigration } from './migrations/0003-ipps.ts';
import { monitoringMigration } from './migrations/0004-monitoring.ts';
import { imagesMigration } from './migrations/0005-images.ts';
import { recognitionMigration } from './migrations/0006-recognition.ts';
import { modelReportMigration } from './migrations/0007-model-report.ts';
import { groupIndexesMigration } from './migrations/0008-group-indexes.ts';
import { liveSizeIndexMigration } from './migrations/0009-live-size-index.ts';
import { userPrefsMigration } from './migrations/0010-user-prefs.ts';
import { classOwnersMigration } from './migrations/0011-class-owners.ts';
import { roiLabelledByMigration } from './migrations/0012-roi-labelled-by.ts';
import { ippPixelSizeMigration } from './migrations/0013-ipp-pixel-size.ts';
import { sizeRollupsMigration } from './migrations/0014-size-rollups.ts';
import { importProgressMigration } from './migrations/0015-import-progress.ts';
import { classTaxaMigration } from './migrations/0016-class-taxa.ts';
import { configHistoryMigration } from './migrations/0017-config-history.ts';
import { alarmsMigration } from './migrations/0018-alarms.ts';
import { telemetryTrendsMigration } from './migrations/0019-telemetry-trends.ts';
import { alarmClassesMigration } from './migrations/0020-alarm-classes.ts';
import { roiFlagsMigration } from './migrations/0021-roi-flags.ts';
import { ippTimeZoneMigration } from './migrations/0022-ipp-time-zone.ts';
import { completenessMigration } from './migrations/0023-completeness.ts';
import { labelHistoryMigration } from './migrations/0024-label-history.ts';
import { ippOnlineSinceMigration } from './migrations/0025-ipp-online-since.ts';
import { roiPixelSizeMigration } from './migrations/0026-roi-pixel-size.ts';
import { alarmSeverityMigration } from './migrations/0027-alarm-severity.ts';
import { alarmThreadsMigration } from './migrations/0028-alarm-threads.ts';
import { alarmSilencesMigration } from './migrations/0029-alarm-silences.ts';
import { alarmSeriesMigration } from './migrations/0030-alarm-series.ts';
import { alarmRoutingMigration } from './migrations/0031-alarm-routing.ts';

/** The one migration set, in order; each takes the dialect so the same steps run on SQLite and PostgreSQL. */
function migrationsFor(db: Db): Record<string, Migration> {
  return {
    '0001-session': sessionMigration(db.dialect),
    '0002-admin': adminMigration,
    '0003-ipps': ippsMigration(db.dialect),
    '0004-monitoring': monitoringMigration(db.dialect),
    '0005-images': imagesMigration(db.dialect),
    '0006-recognition': recognitionMigration(db.dialect),
    '0007-model-report': modelReportMigration,
    '0008-group-indexes': groupIndexesMigration,
    '0009-live-size-index': liveSizeIndexMigration(db.dialect),
    '0010-user-prefs': userPrefsMigration,
    '0011-class-owners': classOwnersMigration,
    '0012-roi-labelled-by': roiLabelledByMigration,
    '0013-ipp-pixel-size': ippPixelSizeMigration,
    '0014-size-rollups': sizeRollupsMigration(db.dialect),
    '0015-import-progress': importProgressMigration,
    '0016-class-taxa': classTaxaMigration,
    '0017-config-history': configHistoryMigration(db.dialect),
    '0018-alarms': alarmsMigration(db.dialect),
    '0019-telemetry-trends': telemetryTrendsMigration(db.dialect),
    '0020-alarm-classes': alarmClassesMigration(),
    '0021-roi-flags': roiFlagsMigration(db.dialect),
    '0022-ipp-time-zone': ippTimeZoneMigration(),
    '0023-completeness': completenessMigration(db.dialect),
    '0024-label-history': labelHistoryMigration(db.dialect),
    '0025-ipp-online-since': ippOnlineSinceMigration(),
    '0026-roi-pixel-size': roiPixelSizeMigration(),
    '0027-alarm-severity': alarmSeverityMigration(),
    '0028-alarm-threads': alarmThreadsMigration(db.dialect),
    '0029-alarm-silences': alarmSilencesMigration(db.dialect),
    '0030-alarm-series': alarmSeriesMigration(),
    '0031-alarm-routing': alarmRoutingMigration(),
  };
}

class InCodeProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

/**
 * The schema the migration tables live in, on PostgreSQL the connection's own: without it Kysely looks for its lock
 * table in every schema of the database, so while another schema has one (parallel test suites, each in a fresh
 * schema) it skips creating its own and fails ("relation kysely_migration_lock does not exist").
 */
async function migrationTableSchema(db: Db): Promise<string | undefined> {
  if (db.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely);
  return rows[0]?.schema ?? undefined;
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely as unknown as Kysely<unknown>,
    provider: new InCodeProvider(migrationsFor(db)),
    migrationTableSchema: await migrationTableSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Up to and including one migration: tests of a migration on a database as the ones before it left it. */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely as unknown as Kysely<unknown>,
    provider: new InCodeProvider(migrationsFor(db)),
    migrationTableSchema: await migrationTableSchema(db),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
