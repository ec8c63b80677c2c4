import type { TestEnv } from './build.ts';

/**
 * Every stored count and state an ROI action can change, as raw rows: the ROIs' own columns, folder memberships and
 * folder counts, and each rollup (rows whose counts are all zero left out: a rollup row emptied and one never made
 * say the same). Biovolume sums are rounded to 6 significant figures (floating-point sums of ± the same values).
 */
export async function countsSnapshot(env: TestEnv) {
  const k = env.db.kysely;
  const round = (v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);
  const clean = (rows: Record<string, unknown>[], countCols: string[]) =>
    rows
      .filter((r) => countCols.some((c) => Number(r[c]) !== 0))
      .map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([key, v]) => [key, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : round(v)]),
        ),
      )
      .map((r) => JSON.stringify(r))
      .sort();
  return {
    rois: await k
      .selectFrom('rois')
      .select([
        'id',
        'class_id',
        'roi_labelindex',
        'hi',
        'labelled_by',
        'labelled_at',
        'favorite_at',
        'review_status',
        'reviewed_at',
        'deleted_at',
        'deleted_by',
      ])
      .orderBy('id')
      .execute(),
    folders: await k.selectFrom('roi_folders').select(['id', 'title', 'category_id', 'n']).orderBy('id').execute(),
    members: clean(await k.selectFrom('folder_rois').selectAll().execute(), ['roi_id']),
    hour: clean(await k.selectFrom('roi_rollup_hour').selectAll().execute(), ['n']),
    day: clean(await k.selectFrom('roi_rollup_day').selectAll().execute(), ['n']),
    totals: clean(await k.selectFrom('roi_totals').selectAll().execute(), ['n']),
    countHour: clean(await k.selectFrom('roi_count_hour').selectAll().execute(), ['n']),
    kinds: clean(await k.selectFrom('roi_class_counts').selectAll().execute(), ['n']),
    sizeHour: clean(await k.selectFrom('roi_size_hour').selectAll().execute(), ['n']),
    sizeDay: clean(await k.selectFrom('roi_size_day').selectAll().execute(), ['n']),
  };
}
