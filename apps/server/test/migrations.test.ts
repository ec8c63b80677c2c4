import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrateTo, migrateToLatest } from '../src/db/migrate.ts';
import * as browse from '../src/modules/identify/browse.repository.ts';

describe('migrations on a database in service (SQLite, with planner statistics)', () => {
  let db: Db | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('new ROI indexes get statistics, so the newest-first list keeps its time index instead of sorting a station', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-migrate-'));
    const statements: { sql: string; params: readonly unknown[] }[] = [];
    db = openDatabase({
      dataDir: dir,
      log: (e) => {
        if (e.level === 'query') statements.push({ sql: e.query.sql, params: e.query.parameters });
      },
    });
    const k = db.kysely;
    await migrateTo(db, '0008-group-indexes');
    await sql`insert into teams (name, created_at) values ('T', 0)`.execute(k);
    for (const dev of ['S1', 'S2']) {
      await sql`insert into ipps (dev_id, site_name, country, longitude, latitude, group_id, serial_number, config,
                 device_key_hash, created_at, updated_at)
               values (${dev}, ${dev}, 'CN', 120, 36, 1, '', '{}', ${dev.padStart(64, '0')}, 0, 0)`.execute(k);
    }
    await sql`with recursive s(x) as (select 1 union all select x + 1 from s where x < 4000)
      insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex, hi)
      select 1 + x % 2, x * 1000, 0, printf('%064x', x), 'image/png', 100, 10, 10, x % 500, 1, 0 from s`.execute(k);
    // A database in service has planner statistics (the server's PRAGMA optimize, or an ANALYZE).
    await sql`analyze`.execute(k);
    await migrateToLatest(db);

    statements.length = 0;
    await browse.page(k, { source: { kind: 'stations', ippIds: [1, 2] }, ippId: 1 }, { field: 'Roi_time', dir: 'desc' }, 201, {});
    const page = statements.find((s) => /order by/i.test(s.sql))!;
    const plan = await sql.raw<{ detail: string }>(`explain query plan ${page.sql}`).compile(k);
    const rows = await k.executeQuery<{ detail: string }>({ ...plan, parameters: page.params });
    const details = rows.rows.map((r) => r.detail).join(' | ');
    expect(details).toContain('rois_live_ipp_time_idx');
    expect(details).not.toContain('TEMP B-TREE');
  });

  it('0011 gives each class the one team whose images carry it (else shared) and turns the old hidden flag into every team hiding it', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-migrate-'));
    db = openDatabase({ dataDir: dir });
    const k = db.kysely;
    await migrateTo(db, '0010-user-prefs');
    await sql`insert into teams (name, created_at) values ('T1', 0), ('T2', 0)`.execute(k);
    for (const [dev, team] of [
      ['S1', 1],
      ['S2', 2],
    ] as const) {
      await sql`insert into ipps (dev_id, site_name, country, longitude, latitude, group_id, serial_number, config,
                 device_key_hash, created_at, updated_at)
               values (${dev}, ${dev}, 'CN', 120, 36, ${team}, '', '{}', ${dev.padStart(64, '0')}, 0, 0)`.execute(k);
    }
    await sql`insert into classes (name, label_index, system, visible, created_at) values
      ('100OnlyT1', 100, 0, 1, 0), ('101Both', 101, 0, 1, 0), ('102Unused', 102, 0, 1, 0), ('103Hidden', 103, 0, 0, 0)`.execute(
      k,
    );
    const classId = async (name: string) =>
      Number((await sql<{ id: number }>`select id from classes where name = ${name}`.execute(k)).rows[0]!.id);
    let n = 0;
    for (const [ipp, name] of [
      [1, '100OnlyT1'],
      [1, '100OnlyT1'],
      [1, '101Both'],
      [2, '101Both'],
      [1, '001Copepod'],
    ] as const) {
      n++;
      await sql`insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex,
                 hi, class_id)
               values (${ipp}, ${n}, 0, ${String(n).padStart(64, '0')}, 'image/png', 1, 1, 1, 1, 0, 1, ${await classId(name)})`.execute(
        k,
      );
    }
    await migrateToLatest(db);

    const owners = await sql<{ name: string; group_id: number | null }>`select name, group_id from classes
      where name in ('100OnlyT1', '101Both', '102Unused', '103Hidden', '001Copepod') order by name`.execute(k);
    expect(owners.rows.map((r) => [r.name, r.group_id === null ? null : Number(r.group_id)])).toEqual([
      ['001Copepod', null],
      ['100OnlyT1', 1],
      ['101Both', null],
      ['102Unused', null],
      ['103Hidden', null],
    ]);
    const hidden = await sql<{ class_id: number; group_id: number }>`select class_id, group_id from class_hidden
      order by group_id`.execute(k);
    const hiddenId = await classId('103Hidden');
    expect(hidden.rows.map((r) => [Number(r.class_id), Number(r.group_id)])).toEqual([
      [hiddenId, 1],
      [hiddenId, 2],
    ]);
    const columns = await sql<{ name: string }>`select name from pragma_table_info('classes')`.execute(k);
    expect(columns.rows.map((c) => c.name)).not.toContain('visible');
  });

  it('0012 adds who labelled an ROI by hand and when; existing hand labels stay, their author unknown', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-migrate-'));
    db = openDatabase({ dataDir: dir });
    const k = db.kysely;
    await migrateTo(db, '0011-class-owners');
    await sql`insert into teams (name, created_at) values ('T', 0)`.execute(k);
    await sql`insert into ipps (dev_id, site_name, country, longitude, latitude, group_id, serial_number, config,
               device_key_hash, created_at, updated_at)
             values ('S1', 'S1', 'CN', 120, 36, 1, '', '{}', ${'1'.padStart(64, '0')}, 0, 0)`.execute(k);
    await sql`insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, roi_labelindex, hi)
             values (1, 1, 0, ${'a'.padStart(64, '0')}, 'image/png', 1, 1, 1, 1, 1, 1)`.execute(k);
    await migrateToLatest(db);
    const rows = await sql<{ hi: number; labelled_by: number | null; labelled_at: number | null }>`select hi, labelled_by,
      labelled_at from rois`.execute(k);
    expect(rows.rows).toEqual([{ hi: 1, labelled_by: null, labelled_at: null }]);
  });

  it("0014 rolls the live ROIs up by size class, each row taking its features' biovolume", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-migrate-'));
    db = openDatabase({ dataDir: dir });
    const k = db.kysely;
    await migrateTo(db, '0013-ipp-pixel-size');
    await sql`insert into teams (name, created_at) values ('T', 0)`.execute(k);
    await sql`insert into ipps (dev_id, site_name, country, longitude, latitude, group_id, serial_number, config,
               device_key_hash, created_at, updated_at)
             values ('S1', 'S1', 'CN', 120, 36, 1, '', '{}', ${'1'.padStart(64, '0')}, 0, 0)`.execute(k);
    await sql`insert into rollup_meta (key, value) values ('day_offset_hours', '8')`.execute(k);
    const hour = 3_600_000;
    // Three measured ROIs in one hour (two share size class 10, one in 3), one unmeasured, one recycled.
    for (const [i, time, deleted] of [
      [1, 5 * hour + 1, null],
      [2, 5 * hour + 2, null],
      [3, 5 * hour + 3, null],
      [4, 5 * hour + 4, null],
      [5, 5 * hour + 5, 1],
    ] as const) {
      await sql`insert into rois (ipp_id, roi_time, received_at, sha256, mime, bytes, width, height, size_px, class_id, deleted_at)
               values (1, ${time}, 0, ${String(i).padStart(64, '0')}, 'image/png', 1, 1, 1, 1, null, ${deleted})`.execute(k);
    }
    for (const [id, bv] of [
      [1, 1024],
      [2, 1500],
      [3, 9],
      [5, 2000],
    ] as const) {
      await sql`insert into roi_features (roi_id, version, vec, sim, measures, biovolume)
               values (${id}, 2, ${Buffer.alloc(4)}, ${Buffer.alloc(1)}, '{}', ${bv})`.execute(k);
    }
    await migrateToLatest(db);
    const rois = await sql<{ id: number; biovolume_px3: number | null }>`select id, biovolume_px3 from rois order by id`.execute(
      k,
    );
    expect(rois.rows).toEqual([
      { id: 1, biovolume_px3: 1024 },
      { id: 2, biovolume_px3: 1500 },
      { id: 3, biovolume_px3: 9 },
      { id: 4, biovolume_px3: null },
      { id: 5, biovolume_px3: 2000 },
    ]);
    const hours = await sql`select hour, class_key, size_class, n, bv_px3 from roi_size_hour order by size_class`.execute(k);
    expect(hours.rows).toEqual([
      { hour: 5 * hour, class_key: 0, size_class: -1, n: 1, bv_px3: 0 },
      { hour: 5 * hour, class_key: 0, size_class: 3, n: 1, bv_px3: 9 },
      { hour: 5 * hour, class_key: 0, size_class: 10, n: 2, bv_px3: 2524 },
    ]);
    const days = await sql`select day, size_class, n, bv_px3 from roi_size_day order by size_class`.execute(k);
    // Statistics days start at 16:00 UTC (UTC+8): 05:00 UTC belongs to the day that started at 16:00 the day before.
    expect(days.rows).toEqual([
      { day: -8 * hour, size_class: -1, n: 1, bv_px3: 0 },
      { day: -8 * hour, size_class: 3, n: 1, bv_px3: 9 },
      { day: -8 * hour, size_class: 10, n: 2, bv_px3: 2524 },
    ]);
  });

  it("0017 starts each instrument's configuration history with its configuration now, applied if the device runs it", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ipp-migrate-'));
    db = openDatabase({ dataDir: dir });
    const k = db.kysely;
    await migrateTo(db, '0016-class-taxa');
    await sql`insert into teams (name, created_at) values ('T', 0)`.execute(k);
    const config = JSON.stringify({ exposure_us: 90, frame_rate: 4 });
    for (const [devId, version, applied, appliedAt] of [
      ['S1', 3, config, 500],
      ['S2', 7, JSON.stringify({ exposure_us: 80, frame_rate: 4 }), 600],
      ['S3', 1, null, null],
    ] as const) {
      await sql`insert into ipps (dev_id, site_name, country, longitude, latitude, group_id, serial_number, config,
                 device_key_hash, created_at, updated_at, config_version, applied_config, applied_at)
               values (${devId}, ${devId}, 'CN', 120, 36, 1, '', ${config}, ${devId.padStart(64, '0')}, 0, 400, ${version},
                 ${applied}, ${appliedAt})`.execute(k);
    }
    await migrateToLatest(db);
    const rows = await sql`select ipp_id, version, config, source, changed_by, changed_by_name, changed_at, applied_at
      from ipp_config_history order by ipp_id`.execute(k);
    const row = { config, source: 'migration', changed_by: null, changed_by_name: null, changed_at: 400 };
    expect(rows.rows).toEqual([
      { ...row, ipp_id: 1, version: 3, applied_at: 500 },
      { ...row, ipp_id: 2, version: 7, applied_at: null },
      { ...row, ipp_id: 3, version: 1, applied_at: null },
    ]);
  });
});
