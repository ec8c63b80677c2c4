import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { adminQuery, databaseUrl } from './helpers/pg-admin.ts';
import './helpers/provided.ts';

/**
 * Migrates once per run instead of once per test world: 24 migrations took about 90 ms on SQLite and 360 ms on
 * PostgreSQL for each of the suite's worlds, a copy of the migrated file takes a few and a database made from a
 * template about 30. The worlds stay fresh and separate; only the empty schema is shared.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-template-'));
  let pgTemplate: string | null = null;
  const teardown = async () => {
    if (pgTemplate) await adminQuery(`drop database if exists ${pgTemplate} with (force)`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const sqlite = openDatabase({ dataDir: dir, sqliteFile: 'template.sqlite' });
    try {
      await migrateToLatest(sqlite);
    } finally {
      await sqlite.close(); // closing the last handle checkpoints the WAL into the file
    }
    project.provide('sqliteTemplate', path.join(dir, 'template.sqlite'));

    let reachable = false;
    try {
      if (process.env.TEST_DIALECTS !== 'sqlite') {
        await adminQuery('select 1');
        reachable = true;
      }
    } catch {
      // helpers/dialects.ts says loudly that the PostgreSQL half is skipped (and fails the run in CI).
    }
    if (reachable) {
      pgTemplate = `ipp_tpl_${crypto.randomBytes(6).toString('hex')}`;
      await adminQuery(`create database ${pgTemplate}`);
      const db = openDatabase({ dataDir: dir, databaseUrl: databaseUrl(pgTemplate) });
      try {
        await migrateToLatest(db);
      } finally {
        await db.close();
      }
    }
    project.provide('pgTemplate', pgTemplate);
  } catch (error) {
    // A failed migration leaves no template database behind on the shared server.
    await teardown();
    throw error;
  }
  return teardown;
}
