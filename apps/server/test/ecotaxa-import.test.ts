import { IMPORT_LISTED_MAX, IMPORT_ROWS_MAX } from '@ipp/contracts';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTsv, parseEcotaxaTsv, timeOf } from '../src/modules/transfer/import-ecotaxa.ts';
import { buildWorld, call, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, roiMultipart, uploadRoi } from './helpers/device.ts';
import { checkEcotaxa, ecotaxaDecode } from './helpers/ecotaxa-rules.ts';
import { unzip, zipOf } from './helpers/zip.ts';

interface Report {
  imported: number;
  duplicates: number;
  conflicts: { file: string; class: string; kept: string; roi_id: number }[];
  conflicts_total: number;
  failed: { file: string; reason: string }[];
  failed_total: number;
  classes: { folder: string; class: string; created: boolean; images: number }[];
  ecotaxa: {
    rows: number;
    validated: number;
    predicted: number;
    dubious: number;
    unclassified: number;
    people_unmatched: string[];
  };
}

describe('reading an EcoTaxa table', () => {
  it('reads dates and times as EcoTaxa writes them, and refuses impossible ones', () => {
    expect(timeOf('20261122', '070102')).toBe(Date.UTC(2026, 10, 22, 7, 1, 2));
    expect(timeOf('2026-11-22', '07:01')).toBe(Date.UTC(2026, 10, 22, 7, 1, 0));
    expect(timeOf('20261122', '')).toBe(Date.UTC(2026, 10, 22));
    for (const [d, t] of [
      ['20260230', '000000'],
      ['2026112', '000000'],
      ['20261122', '250000'],
      ['', ''],
    ])
      expect(timeOf(d!, t!)).toBeNull();
  });

  it('decodes UTF-8 with or without its byte-order mark, and Latin-1 where the bytes are not UTF-8', () => {
    expect(decodeTsv(Buffer.from('\uFEFF桡足类', 'utf8'))).toBe('桡足类');
    expect(decodeTsv(Buffer.from('桡足类', 'utf8'))).toBe('桡足类');
    expect(decodeTsv(Buffer.from('Cop\xe9pode', 'latin1'))).toBe('Copépode');
  });

  it('answers every unreadable row with its line and why, and reads the rest', () => {
    const text = [
      'img_file_name\tobject_annotation_status\tobject_annotation_category\tobject_date',
      '[t]\t[t]\t[t]\t[t]',
      'a.png\tvalidated\tOithona<Oithonidae\t20260101',
      '\tpredicted\tCopepoda\t20260101',
      'b.png\tsure\tCopepoda\t20260101',
      'c.png\tpredicted\t\t20260101',
      'd.png\t\t\t20261399',
      '',
    ].join('\n');
    const { objects, failed } = parseEcotaxaTsv(text, 't.tsv');
    expect(objects.map((o) => [o.where, o.image, o.status, o.category, o.capturedAt])).toEqual([
      ['t.tsv:3', 'a.png', 'validated', 'Oithona', Date.UTC(2026, 0, 1)],
      ['t.tsv:7', 'd.png', '', '', null],
    ]);
    expect(failed.map((f) => f.file)).toEqual(['t.tsv:4', 't.tsv:5', 't.tsv:6']);
    expect(failed[1]!.reason).toContain('"sure"');
    expect(() => parseEcotaxaTsv('object_id\n1', 'x.tsv')).toThrow(/img_file_name/);
  });

  it("takes the instrument's size from object_instrument_area, or from object_area of a console export before issue 37", () => {
    const areaOf = (text: string) => parseEcotaxaTsv(text, 't.tsv').objects.map((o) => o.areaPx);
    // Now: object_area is the segmented area (measured again on import), object_instrument_area the instrument's.
    expect(areaOf('img_file_name\tobject_label_source\tobject_area\tobject_instrument_area\na.png\tai\t311\t90\n')).toEqual([90]);
    // The console's earlier exports wrote the instrument's count as object_area (they carry object_label_source).
    expect(areaOf('img_file_name\tobject_label_source\tobject_area\na.png\tai\t90\n')).toEqual([90]);
    // Another tool's object_area is its own measure, not an instrument's count.
    expect(areaOf('img_file_name\tobject_area\na.png\t311\n')).toEqual([null]);
  });
});

describe.each(dialects)('EcoTaxa round trip on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let made: number[];
  let a1: { id: number; key: string };
  let a2: { id: number; key: string };

  const exportZip = async (ids: number[]) => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/roi/export',
      headers: { 'x-token': w.tokens.user ?? '' },
      payload: { format: 'ecotaxa', roi_ids: ids },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.rawPayload;
  };
  const importZip = (token: string | undefined, devId: string, zip: Buffer, lang = 'en', extra = '') => {
    const { payload, headers } = roiMultipart({}, zip);
    return env.app.inject({
      method: 'POST',
      url: `/api/roi/import?dev_id=${devId}&format=ecotaxa${extra}`,
      payload,
      headers: { ...headers, 'x-lang': lang, 'x-token': token ?? '' },
    });
  };
  const reportOf = (res: { body: string }) => {
    const b = body(res as never);
    expect(b.code, JSON.stringify(b)).toBe(1000);
    return b.data as Report;
  };
  /** What a station's ROIs are, without their ids and image bytes: time, size, label, state, who and when. */
  const stateOf = async (ippId: number) =>
    (
      await env.db.kysely
        .selectFrom('rois as r')
        .leftJoin('classes as c', 'c.id', 'r.class_id')
        .select([
          'r.roi_time',
          'r.width',
          'r.height',
          'r.size_px',
          'c.name as class_name',
          'r.hi',
          'r.roi_labelindex',
          'r.confidence',
          'r.review_status',
          'r.labelled_by',
          'r.labelled_at',
        ])
        .where('r.ipp_id', '=', ippId)
        .orderBy('r.roi_time')
        .execute()
    ).map((r) => ({
      ...r,
      roi_time: Number(r.roi_time),
      labelled_at: r.labelled_at === null ? null : Number(r.labelled_at),
      // A hand label has no score: the one an earlier machine label left on the row is not exported (docs/ecotaxa.md).
      confidence: r.hi === 1 ? null : r.confidence,
    }));
  /** The exported table's rows, less the cells that name the station or the ROI id. */
  const rowsOf = (files: Map<string, Buffer>) =>
    ecotaxaDecode(files.get('ecotaxa_export.tsv')!)
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => line.split('\t'))
      .map((cells) => [...cells.slice(2, 22), ...cells.slice(23, 24), ...cells.slice(26)].join('\t'))
      .sort();

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    const k = env.db.kysely;
    a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { latitude: 36.25, longitude: 121.5 });
    a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2', { latitude: 36.25, longitude: 121.5 });
    await k.updateTable('ipps').set({ pixel_size_um: 2 }).execute();
    await k
      .insertInto('classes')
      .values({ name: '050桡足类', label_index: 50, system: 0, group_id: w.teamA, created_at: env.clock.now })
      .execute();
    // Two UTC days; labels Copepod, none, 桡足类 (sent as WebP), and an on-device index no class carries (77).
    made = [];
    let seed = 500;
    for (const day of [19, 20])
      for (const [minute, label] of [1, 0, 50, 77].entries()) {
        const png = await pngOf(seed++);
        const file = label === 50 ? await sharp(png).webp({ lossless: true }).toBuffer() : png;
        const res = body(
          await uploadRoi(
            env,
            a1.key,
            {
              captured_at: Date.UTC(2026, 10, day, 23, minute, 7),
              label_index: label,
              size_px: 40 + label,
              ...(label ? { confidence: 0.83 } : {}),
            },
            file,
          ),
        );
        expect(res.code, JSON.stringify(res)).toBe(1000);
        made.push((res.data as { roi_id: number }).roi_id);
      }
    // Hand labels with who and when (one of them pending review), and the three review states of machine labels.
    await k.updateTable('users').set({ email: 'admin.a@example.org' }).where('id', '=', w.ids.ownAdmin).execute();
    const copepod = (await k.selectFrom('classes').select('id').where('name', '=', '001Copepod').executeTakeFirstOrThrow()).id;
    for (const id of [made[0]!, made[4]!]) await env.app.rois.setClass(id, copepod, 1, 1);
    await k
      .updateTable('rois')
      .set({ labelled_by: w.ids.ownAdmin, labelled_at: Date.UTC(2026, 10, 25, 8, 30, 15) })
      .where('id', 'in', [made[0]!, made[4]!])
      .execute();
    await k.updateTable('rois').set({ review_status: 1 }).where('id', '=', made[4]!).execute();
    await k.updateTable('rois').set({ review_status: 2, reviewed_at: env.clock.now }).where('id', '=', made[5]!).execute();
    await k
      .updateTable('rois')
      .set({ review_status: 3, reviewed_at: env.clock.now })
      .where('id', 'in', [made[3]!, made[6]!])
      .execute();
  });
  afterEach(() => env.close());

  it('an export imported into another station gives the same ROIs, classes and states, and exports the same table', async () => {
    const first = await unzip(await exportZip(made));
    const report = reportOf(await importZip(w.tokens.ownAdmin, 'A2', await exportZip(made)));
    expect(report).toMatchObject({ imported: 8, duplicates: 0, conflicts: [], failed: [] });
    expect(report.ecotaxa).toEqual({
      rows: 8,
      validated: 2,
      predicted: 1,
      dubious: 1,
      unclassified: 4,
      people_unmatched: [],
    });
    expect(report.classes.map((c) => [c.folder, c.class, c.created])).toEqual([
      ['Copepoda', '001Copepod', false],
      ['桡足类', '050桡足类', false],
    ]);
    const [from, to] = [await stateOf(a1.id), await stateOf(a2.id)];
    expect(to).toEqual(from);
    // Review states: a hand label pending review, an approved one, and two rejected machine labels (one with a class:
    // dubious in EcoTaxa; one with an index no class carries) stay as they were.
    expect(to.map((r) => [r.hi, r.review_status])).toEqual([
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 3],
      [1, 1],
      [0, 2],
      [0, 3],
      [0, 0],
    ]);
    // Exporting the imported ROIs gives the same table, station and ids aside.
    const again = await env.db.kysely.selectFrom('rois').select('id').where('ipp_id', '=', a2.id).execute();
    const second = await unzip(await exportZip(again.map((r) => r.id)));
    expect(rowsOf(second)).toEqual(rowsOf(first));
    expect(checkEcotaxa(second)).toMatchObject({ errors: [], silent: [] });
    // The counts moved with the ROIs: both stations' trees say the same.
    const tree = async (ippId: number) =>
      (
        body(await call(env, w.tokens.user, 'GET', `/api/roi-index/index?category_id=-100&ipp_id=${ippId}`)).data as {
          code: string;
          count: number;
        }[]
      ).map((n) => [n.code, n.count]);
    expect(await tree(a2.id)).toEqual(await tree(a1.id));
  });

  it('re-importing is safe, and an image already stored with another label is reported, not dropped silently', async () => {
    const zip = await exportZip(made);
    reportOf(await importZip(w.tokens.ownAdmin, 'A2', zip));
    const again = reportOf(await importZip(w.tokens.ownAdmin, 'A2', zip));
    expect(again).toMatchObject({ imported: 0, duplicates: 8, conflicts: [], failed: [] });
    // A2 now holds these images, the first one under Copepod: a table that says 桡足类 for it is a conflict.
    const files = await unzip(zip);
    const text = ecotaxaDecode(files.get('ecotaxa_export.tsv')!)
      .replace('\tvalidated\tCopepoda\t', '\tvalidated\t桡足类\t')
      .replace(/\t1080\t001Copepod\t(\d*)$/m, '\t\t\t$1');
    files.set('ecotaxa_export.tsv', Buffer.from('\uFEFF' + text));
    const conflict = reportOf(await importZip(w.tokens.ownAdmin, 'A2', await zipOf(files)));
    expect(conflict).toMatchObject({ imported: 0, duplicates: 8 });
    expect(conflict.conflicts).toEqual([
      { file: 'ecotaxa_export.tsv:3', class: '050桡足类', kept: '001Copepod', roi_id: expect.any(Number) },
    ]);
  });

  it("imports another tool's EcoTaxa table: Latin-1, no type line, short statuses, qualified names, unknown people", async () => {
    const table = [
      'object_id\timg_file_name\tobject_date\tobject_time\tobject_annotation_status\tobject_annotation_category\tobject_annotation_person_name\tobject_annotation_person_email\tobject_annotation_date',
      'x1\tsample1/x1.png\t2026-03-04\t10:11:12\tV\tCopepoda<Maxillopoda\tJosé Ruiz\tjose@example.org\t20260305',
      'x2\tsample1/x2.png\t20260304\t101113\tP\tNoctiluca\t\t\t',
      'x3\tsample1/x3.png\t20260304\t101114\t\t\t\t\t',
      'x4\t../../outside.png\t20260304\t101115\t\t\t\t\t',
      'x5\tsample1/missing.png\t20260304\t101116\t\t\t\t\t',
    ].join('\r\n');
    const zip = await zipOf({
      'export/ecotaxa_x.tsv': Buffer.from(table, 'latin1'),
      'export/sample1/x1.png': await pngOf(701),
      'export/sample1/x2.png': await pngOf(702),
      'export/sample1/x3.png': await pngOf(703),
    });
    const report = reportOf(await importZip(w.tokens.ownAdmin, 'A2', zip));
    expect(report).toMatchObject({ imported: 3, duplicates: 0, conflicts: [] });
    expect(report.failed.map((f) => f.file)).toEqual(['export/ecotaxa_x.tsv:5', 'export/ecotaxa_x.tsv:6']);
    expect(report.failed[0]!.reason).toContain('outside the export');
    expect(report.failed[1]!.reason).toContain('not in the export');
    expect(report.ecotaxa).toMatchObject({ validated: 1, predicted: 1, unclassified: 1, people_unmatched: ['jose@example.org'] });
    // Copepoda is the taxon the team's classes map 001Copepod to (the starter list); Noctiluca is no class yet.
    expect(report.classes.map((c) => [c.folder, c.class, c.created])).toEqual([
      ['Copepoda', '001Copepod', false],
      ['Noctiluca', '100Noctiluca', true],
    ]);
    const rows = await stateOf(a2.id);
    expect(rows.map((r) => [r.roi_time, r.class_name, r.hi, r.labelled_by, r.labelled_at])).toEqual([
      [Date.UTC(2026, 2, 4, 10, 11, 12), '001Copepod', 1, null, Date.UTC(2026, 2, 5)],
      [Date.UTC(2026, 2, 4, 10, 11, 13), '100Noctiluca', 0, null, null],
      [Date.UTC(2026, 2, 4, 10, 11, 14), null, 0, null, null],
    ]);
    // Imported labels are kept as given: the unidentified object stays unidentified, its size is its own object's.
    expect(rows[2]!.size_px).toBeLessThan(24 * 24);
  });

  it('two administrators import the same export at once: every object stored once, each state once', async () => {
    const zip = await exportZip(made);
    const [one, two] = await Promise.all([importZip(w.tokens.ownAdmin, 'A2', zip), importZip(w.tokens.superadmin, 'A2', zip)]);
    const reports = [reportOf(one), reportOf(two)];
    expect(reports[0]!.imported + reports[1]!.imported).toBe(8);
    expect(reports[0]!.duplicates + reports[1]!.duplicates).toBe(8);
    for (const r of reports) expect([r.conflicts, r.failed]).toEqual([[], []]);
    expect(await stateOf(a2.id)).toEqual(await stateOf(a1.id));
  });

  it('follows a named import: upload, then objects done of the total, then its report; failures in the reader language', async () => {
    const zip = await exportZip(made);
    const progressOf = (token: string | undefined, id: string, lang = 'en') =>
      call(env, token, 'GET', `/api/roi/import-progress?progress_id=${id}`, undefined, lang);
    const report = reportOf(await importZip(w.tokens.ownAdmin, 'A2', zip, 'en', '&progress_id=import-one-0001'));
    const done = body(await progressOf(w.tokens.ownAdmin, 'import-one-0001'));
    expect(done).toMatchObject({ code: 1000, data: { phase: 'done', done: 8, total: 8, error: null } });
    expect((done.data as { report: Report }).report).toEqual(report);
    // Only its own caller sees it; a name is used once.
    expect(body(await progressOf(w.tokens.superadmin, 'import-one-0001'))).toMatchObject({ code: 1002, msg: 'No such import' });
    expect(body(await progressOf(w.tokens.user, 'import-one-0001')).code).toBe(1011);
    expect(body(await importZip(w.tokens.ownAdmin, 'A2', zip, 'en', '&progress_id=import-one-0001')).code).toBe(1002);
    expect(body(await progressOf(w.tokens.ownAdmin, 'bad id'))).toMatchObject({ code: 1002 });
    const noTable = await zipOf({ 'images/1.png': await pngOf(1) });
    expect(body(await importZip(w.tokens.ownAdmin, 'A2', noTable, 'en', '&progress_id=import-two-0002')).code).toBe(1002);
    expect(body(await progressOf(w.tokens.ownAdmin, 'import-two-0002', 'zh'))).toMatchObject({
      data: { phase: 'failed', report: null, error: '压缩包中没有含对象的 EcoTaxa 表格（*.tsv 及其引用的图像）' },
    });
  });

  it('refuses a table of more than IMPORT_ROWS_MAX rows before reading any image, and lists at most 100 failures (issue 37)', async () => {
    const table = (rows: number, from = 0) =>
      [
        'img_file_name\tobject_annotation_status\tobject_annotation_category',
        ...Array.from({ length: rows }, (_, i) => `gone/${from + i}.png\tvalidated\tBombozoa`),
      ].join('\n');
    // The bomb: IMPORT_ROWS_MAX + 1 rows naming images that are not there (a few MB of table, a small zip).
    const bomb = await zipOf({ 'bomb.tsv': Buffer.from(table(IMPORT_ROWS_MAX + 1)) });
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const started = performance.now();
    const refused = await importZip(w.tokens.ownAdmin, 'A2', bomb, 'zh', '&progress_id=import-bomb-0001');
    const seconds = (performance.now() - started) / 1000;
    expect(refused.statusCode).toBe(413);
    expect(body(refused)).toMatchObject({
      code: 1002,
      msg: `EcoTaxa 表格超过 ${IMPORT_ROWS_MAX} 行对象，一次导入最多 ${IMPORT_ROWS_MAX} 行：请把导出拆分成较小的部分分别导入（未导入任何内容）`,
    });
    expect(refused.body.length).toBeLessThan(2000);
    expect(seconds).toBeLessThan(15);
    // Nothing half written: no ROI, no class, and the progress row holds the refusal, not a report.
    expect(await stateOf(a2.id)).toEqual([]);
    expect(await env.db.kysely.selectFrom('classes').select('id').where('name', 'like', '%Bombozoa').execute()).toEqual([]);
    const progress = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/roi/import-progress?progress_id=import-bomb-0001'));
    expect(progress).toMatchObject({ data: { phase: 'failed', report: null } });
    expect(String((progress.data as { error: string }).error)).toContain(String(IMPORT_ROWS_MAX));
    // Rows of several tables count together.
    const split = await zipOf({
      'a.tsv': Buffer.from(table(IMPORT_ROWS_MAX / 2)),
      'b.tsv': Buffer.from(table(IMPORT_ROWS_MAX / 2 + 1, IMPORT_ROWS_MAX)),
    });
    expect((await importZip(w.tokens.ownAdmin, 'A2', split)).statusCode).toBe(413);

    // Under the cap: every failure is counted, the first 100 listed; the images that are there are imported.
    const some = await zipOf({
      'some.tsv': Buffer.from(table(300) + '\nhere/1.png\tvalidated\tBombozoa\nhere/2.png\t\t\n'),
      'here/1.png': await pngOf(801),
      'here/2.png': await pngOf(802),
    });
    const answer = await importZip(w.tokens.ownAdmin, 'A2', some, 'en', '&progress_id=import-some-0002');
    const report = reportOf(answer);
    expect(report).toMatchObject({ imported: 2, failed_total: 300, conflicts_total: 0 });
    expect(report.failed).toHaveLength(IMPORT_LISTED_MAX);
    expect(report.failed[0]).toEqual({ file: 'some.tsv:2', reason: 'image gone/0.png is not in the export' });
    expect(report.ecotaxa.rows).toBe(302);
    expect(answer.body.length).toBeLessThan(20_000);
    const stored = body(await call(env, w.tokens.ownAdmin, 'GET', '/api/roi/import-progress?progress_id=import-some-0002'));
    expect((stored.data as { report: Report }).report).toEqual(report);
  });

  it('refuses users, other teams and a zip without a table, in the caller language, importing nothing', async () => {
    const zip = await exportZip(made);
    expect(body(await importZip(w.tokens.user, 'A2', zip)).code).toBe(1011);
    expect(body(await importZip(w.tokens.otherAdmin, 'A2', zip))).toMatchObject({ code: 1002 });
    const noTable = await zipOf({ 'images/1.png': await pngOf(1) });
    expect(body(await importZip(w.tokens.ownAdmin, 'A2', noTable, 'zh'))).toMatchObject({
      code: 1002,
      msg: '压缩包中没有含对象的 EcoTaxa 表格（*.tsv 及其引用的图像）',
    });
    const notEcotaxa = await zipOf({ 'x.tsv': Buffer.from('a\tb\n1\t2\n') });
    const res = body(await importZip(w.tokens.ownAdmin, 'A2', notEcotaxa));
    expect(res.code).toBe(1002);
    expect(String(res.msg)).toContain('img_file_name');
    expect(await stateOf(a2.id)).toEqual([]);
  });
});
