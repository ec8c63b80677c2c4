import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorld, type World } from './helpers/actors.ts';
import { body, buildTestApp, type TestEnv } from './helpers/build.ts';
import { dialects } from './helpers/dialects.ts';
import { pngOf, registerIpp, telemetry, uploadRoi } from './helpers/device.ts';
import { checkEcotaxa, ecotaxaDecode, imageFormatOf } from './helpers/ecotaxa-rules.ts';
import sharp from 'sharp';
import { unzip } from './helpers/zip.ts';

describe.each(dialects)('exports on %s', (dialect) => {
  let env: TestEnv;
  let w: World;
  let ids: number[];
  let images: Buffer[];
  let bRoi: number;

  const exportCall = (token: string | undefined, payload: object, lang = 'en') =>
    env.app.inject({ method: 'POST', url: '/api/roi/export', headers: { 'x-lang': lang, 'x-token': token ?? '' }, payload });

  beforeEach(async () => {
    env = await buildTestApp(dialect);
    w = await buildWorld(env);
    const a1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A1', { latitude: 36.25, longitude: 121.5 });
    const b1 = await registerIpp(env, w.tokens.otherAdmin, w.teamB, 'B1');
    ids = [];
    images = [];
    for (const [i, label] of [1, 0, 2].entries()) {
      const png = await pngOf(100 + i);
      images.push(png);
      const res = body(
        await uploadRoi(env, a1.key, { captured_at: Date.UTC(2026, 10, 22, 7, i), label_index: label, size_px: 500 + i }, png),
      );
      ids.push((res.data as { roi_id: number }).roi_id);
    }
    bRoi = (
      body(
        await uploadRoi(env, b1.key, { captured_at: Date.UTC(2026, 10, 22, 7, 0), label_index: 1, size_px: 1 }, await pngOf(9)),
      ).data as { roi_id: number }
    ).roi_id;
  });
  afterEach(() => env.close());

  it('exports a selection as CSV, one row per ROI with its station position', async () => {
    const res = await exportCall(w.tokens.user, { format: 'csv', roi_ids: [ids[2], ids[0]] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="rois-\d+\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe(
      'roi_id,dev_id,site_name,roi_time_utc,class,type,confidence,size_px,width,height,bytes,latitude,longitude,review,sha256,' +
        'pixel_size_um,esd_um,area_um2,biovolume_mm3,taxon,aphia_id',
    );
    // A1 has no pixel size: its sizes are in pixels only.
    expect(lines[1]!.split(',').slice(15, 19)).toEqual(['', '', '', '']);
    // Its class's taxon, from the starter list (the team mapped none): Copepoda, WoRMS 1080; Diatom_chain's too.
    expect(lines[1]!.split(',').slice(19)).toEqual(['Copepoda', '1080']);
    expect(lines[2]!.split(',').slice(19)).toEqual(['Bacillariophyceae', '148899']);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 6))).toEqual([
      [String(ids[0]), 'A1', 'Site A1', '2026-11-22T07:00:00.000Z', '001Copepod', 'ai'],
      [String(ids[2]), 'A1', 'Site A1', '2026-11-22T07:02:00.000Z', '002Diatom_chain', 'ai'],
    ]);
    expect(lines[1]!.split(',').slice(11, 13)).toEqual(['36.25', '121.5']);
    // One current label: the confidence column is the ROI's; a hand label has none (issue 38).
    await env.db.kysely.updateTable('rois').set({ confidence: 0.612 }).where('id', '=', ids[0]!).execute();
    await env.db.kysely.updateTable('rois').set({ hi: 1, confidence: 0.5 }).where('id', '=', ids[2]!).execute();
    const again = (await exportCall(w.tokens.user, { format: 'csv', roi_ids: [ids[2], ids[0]] })).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(again.slice(1).map((l) => l.split(',').slice(5, 7))).toEqual([
      ['ai', '0.612'],
      ['hi', ''],
    ]);
    // Another team's ROI in the selection fails the whole export, in the caller's language.
    const refused = await exportCall(w.tokens.user, { format: 'csv', roi_ids: [ids[0], bRoi] }, 'zh');
    expect(body(refused)).toMatchObject({ code: 1002, msg: 'ROI 信息获取失败' });
    expect(body(await exportCall(w.tokens.user, { format: 'csv' })).code).toBe(1002);
    expect(body(await exportCall(undefined, { format: 'csv', roi_ids: [ids[0]] })).code).toBe(1010);
  });

  it('exports a list query as an EcoTaxa zip: TSV with its type row and the original images', async () => {
    const res = await exportCall(w.tokens.user, {
      format: 'ecotaxa',
      query: { category_id: -100, ipp_id: undefined, code: undefined },
    });
    // Site images need a station: the query is checked like a list.
    expect(body(res).code).toBe(1002);
    const station = (await env.db.kysely.selectFrom('ipps').select('id').where('dev_id', '=', 'A1').executeTakeFirstOrThrow()).id;
    const ok = await exportCall(w.tokens.user, {
      format: 'ecotaxa',
      query: { category_id: -100, ipp_id: station, sorttype: 'asc' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-total-count']).toBe('3');
    const files = await unzip(ok.rawPayload);
    const tsv = ecotaxaDecode(files.get('ecotaxa_export.tsv')!).trim().split('\n');
    expect(tsv[0]!.split('\t').slice(0, 8)).toEqual([
      'img_file_name',
      'object_id',
      'object_lat',
      'object_lon',
      'object_date',
      'object_time',
      'object_annotation_status',
      'object_annotation_category',
    ]);
    expect(tsv[1]!.split('\t').every((t) => t === '[t]' || t === '[f]')).toBe(true);
    const rows = tsv.slice(2).map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[4], r[5], r[6], r[7]])).toEqual([
      [`images/${ids[0]}.png`, '20261122', '070000', 'predicted', 'Copepoda'],
      [`images/${ids[1]}.png`, '20261122', '070100', '', ''],
      [`images/${ids[2]}.png`, '20261122', '070200', 'predicted', 'Bacillariophyceae'],
    ]);
    for (const [i, id] of ids.entries()) expect(files.get(`images/${id}.png`)?.equals(images[i]!)).toBe(true);
  });

  it('two callers export the same selection as EcoTaxa at once: the same valid table for both', async () => {
    const [one, two] = await Promise.all([
      exportCall(w.tokens.user, { format: 'ecotaxa', roi_ids: ids }),
      exportCall(w.tokens.ownAdmin, { format: 'ecotaxa', roi_ids: ids }),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    const [a, b] = await Promise.all([unzip(one.rawPayload), unzip(two.rawPayload)]);
    expect(a.get('ecotaxa_export.tsv')!.equals(b.get('ecotaxa_export.tsv')!)).toBe(true);
    for (const files of [a, b]) expect(checkEcotaxa(files)).toMatchObject({ errors: [], silent: [] });
  });

  it('exports stations × days × label states as EcoTaxa accepts them, and the checker refuses what EcoTaxa refuses', async () => {
    const k = env.db.kysely;
    const a2 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'A2', { latitude: -12.5, longitude: -150.25 });
    await k
      .insertInto('classes')
      .values({ name: '050桡足类', label_index: 50, system: 0, group_id: w.teamA, created_at: env.clock.now })
      .execute();
    const c1 = await registerIpp(env, w.tokens.ownAdmin, w.teamA, 'C1', { latitude: 36.25, longitude: 121.5 });
    // Two stations over three UTC days; labels: Copepod, none, 桡足类 (sent as WebP), an on-device index no class
    // carries (77).
    const made: number[] = [];
    let seed = 300;
    for (const key of [c1.key, a2.key])
      for (const day of [19, 20, 21])
        for (const [minute, label] of [1, 0, 50, 77].entries()) {
          const png = await pngOf(seed++);
          const file = label === 50 ? await sharp(png).webp({ lossless: true }).toBuffer() : png;
          const res = body(
            await uploadRoi(
              env,
              key,
              {
                captured_at: Date.UTC(2026, 10, day, 23, minute),
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
    // C1 has a pixel size (2 µm per pixel); A2 has none.
    await k.updateTable('ipps').set({ pixel_size_um: 2 }).where('dev_id', '=', 'C1').execute();
    // The water C1 sampled on the 19th (its volume counter went from 100 L to 112.5 L); none reported on other days.
    for (const [minute, total] of [
      [0, 100],
      [5, 112.5],
    ] as const)
      expect((await telemetry(env, c1.key, { at: Date.UTC(2026, 10, 19, 10, minute), volume_total_l: total })).statusCode).toBe(
        200,
      );
    // Hand labels (who and when), and the three review states.
    await k.updateTable('users').set({ email: 'admin.a@example.org' }).where('id', '=', w.ids.ownAdmin).execute();
    await k
      .updateTable('rois')
      .set({ hi: 1, labelled_by: w.ids.ownAdmin, labelled_at: Date.UTC(2026, 10, 25, 8, 30, 15) })
      .where('id', 'in', [made[0]!, made[2]!])
      .execute();
    await k.updateTable('rois').set({ review_status: 1 }).where('id', '=', made[4]!).execute();
    await k.updateTable('rois').set({ review_status: 2 }).where('id', '=', made[6]!).execute();
    await k.updateTable('rois').set({ review_status: 3 }).where('id', '=', made[8]!).execute();

    const res = await exportCall(w.tokens.user, { format: 'ecotaxa', roi_ids: made });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const files = await unzip(res.rawPayload);
    const check = checkEcotaxa(files);
    expect(check.errors).toEqual([]);
    expect(check.silent).toEqual([]);
    expect(check.rows).toHaveLength(made.length);
    const row = (id: number) => check.rows.find((r) => r.object_id!.endsWith(`_${id}`))!;
    // The UTF-8 class name arrives as written; a hand label carries its author and time, a machine label its score.
    expect(row(made[0]!)).toMatchObject({
      object_annotation_status: 'validated',
      object_annotation_category: 'Copepoda',
      object_aphia_id: '1080',
      object_console_class: '001Copepod',
      object_annotation_person_name: 'Name of admin_a',
      object_annotation_person_email: 'admin.a@example.org',
      object_annotation_date: '20261125',
      object_annotation_time: '083015',
      object_confidence: '',
      object_label_source: 'hi',
    });
    // A class neither the team nor the starter list maps goes by its name, without an AphiaID.
    expect(row(made[2]!)).toMatchObject({
      object_annotation_status: 'validated',
      object_annotation_category: '桡足类',
      object_aphia_id: '',
    });
    expect(row(made[3]!)).toMatchObject({
      object_annotation_status: '',
      object_annotation_category: '',
      object_label_source: 'ai',
      object_device_label: '77',
    });
    expect(row(made[1]!)).toMatchObject({ object_annotation_status: '', object_label_source: 'ui' });
    expect(row(made[4]!)).toMatchObject({ object_annotation_status: 'predicted', object_review: 'pending' });
    expect(row(made[4]!).object_confidence).toBe('0.83');
    expect(row(made[6]!)).toMatchObject({ object_annotation_status: 'predicted', object_review: 'approved' });
    expect(row(made[8]!)).toMatchObject({ object_annotation_status: 'dubious', object_review: 'rejected' });
    // The station and UTC day is the sample and the acquisition: six of each, one per station and day.
    expect(new Set(check.rows.map((r) => r.acq_id)).size).toBe(6);
    expect(row(made[5]!).acq_id).toBe(row(made[5]!).sample_id);
    // Sizes in physical units from the segmented object and the station's pixel size; empty without one.
    const measures = JSON.parse(
      (await k.selectFrom('roi_features').select('measures').where('roi_id', '=', made[0]!).executeTakeFirstOrThrow()).measures,
    ) as { equivalent_diameter_px: number; area_px: number; biovolume_px3: number };
    expect(Number(row(made[0]!).object_esd_um)).toBeCloseTo(measures.equivalent_diameter_px * 2, 3);
    expect(Number(row(made[0]!).object_area_um2)).toBeCloseTo(measures.area_px * 4, 1);
    expect(Number(row(made[0]!).object_biovolume_mm3)).toBeCloseTo(measures.biovolume_px3 * 8e-9, 9);
    expect(row(made[0]!).acq_pixel_size_um).toBe('2');
    expect(row(made[12]!)).toMatchObject({ object_esd_um: '', object_area_um2: '', acq_pixel_size_um: '' });
    // One area (issue 37): object_area is the segmented area every µm figure comes from, on every row with a pixel
    // size; the instrument's own count (size_px, 40 + its label here) travels as object_instrument_area.
    const withSize = check.rows.filter((r) => r.acq_pixel_size_um !== '');
    expect(withSize).toHaveLength(12);
    for (const r of withSize) {
      const pixel = Number(r.acq_pixel_size_um);
      expect(r.object_area).not.toBe('');
      expect(Number(r.object_area) * pixel * pixel).toBeCloseTo(Number(r.object_area_um2), 1);
    }
    expect(row(made[0]!).object_area).toBe(String(measures.area_px));
    for (const [i, id] of made.entries()) expect(row(id).object_instrument_area).toBe(String(40 + [1, 0, 50, 77][i % 4]!));
    // The sample carries the water the station sampled that UTC day, so EcoTaxa can compute concentrations.
    expect(row(made[0]!).sample_volume_l).toBe('12.5');
    expect(row(made[4]!).sample_volume_l).toBe('');
    expect(row(made[12]!)).toMatchObject({
      object_lat: '-12.5',
      object_lon: '-150.25',
      object_date: '20261119',
      object_time: '230000',
    });
    // The WebP went out as a PNG of the same pixels.
    const webp = row(made[2]!).img_file_name!;
    expect(webp).toBe(`images/${made[2]}.png`);
    expect(imageFormatOf(files.get(webp)!)).toBe('PNG');
    const [got, want] = await Promise.all([files.get(webp)!, await pngOf(302)].map((b) => sharp(b).raw().toBuffer()));
    expect(got!.equals(want!)).toBe(true);

    // The checker fails what EcoTaxa fails: the earlier export's shapes are refused or silently changed.
    const tsv = files.get('ecotaxa_export.tsv')!;
    const broken = new Map(files);
    broken.set('ecotaxa_export.tsv', tsv.subarray(3));
    expect(checkEcotaxa(broken).silent).toEqual([
      'ecotaxa_export.tsv: read as Latin-1 (no UTF-8 byte-order mark): non-ASCII text changes',
    ]);
    const text = tsv.toString('utf8');
    const oneAcq = text.replace(/\t(A2|C1)_(\d{8})\tIPP\t/g, '\t$1\tIPP\t');
    broken.set('ecotaxa_export.tsv', Buffer.from(oneAcq));
    expect(checkEcotaxa(broken).errors.filter((e) => e.startsWith("Acquisition 'A2' is already associated"))).toHaveLength(2);
    const noCategory = text.replace(/\tpredicted\t[^\t]+\t/, '\tpredicted\t\t');
    broken.set('ecotaxa_export.tsv', Buffer.from(noCategory));
    expect(checkEcotaxa(broken).errors).toEqual([
      expect.stringMatching(/^line \d+: When annotation status 'predicted' is provided there has to be a category\.$/),
    ]);
    broken.set('ecotaxa_export.tsv', tsv);
    broken.set(
      webp,
      await sharp(await pngOf(302))
        .webp()
        .toBuffer(),
    );
    expect(checkEcotaxa(broken).errors).toEqual([expect.stringContaining('Unsupported image format: WEBP')]);
  });
});
