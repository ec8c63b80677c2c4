import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { ROI_FLAG_BITS, type FeatureFilter, type RoiFlagFilter, type SortField } from '@ipp/contracts';
import type { DialectName } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { summaries } from '../rois/rois.repository.ts';
import type { Source } from './scope.ts';

export interface BrowseFilter {
  source: Source;
  kind?: number;
  classKey?: number;
  ippId?: number;
  start?: number;
  end?: number;
  sizeMin?: number;
  sizeMax?: number;
  /** Equivalent spherical diameter range, µm: from the object's area (size_px) and its station's pixel size. */
  esdMinUm?: number;
  esdMaxUm?: number;
  /** The instrument's state at capture (issue 23): any flag, none, or one. */
  flag?: RoiFlagFilter;
  /** Confidence range (issue 25); an ROI without a confidence matches no bound. */
  confMin?: number;
  confMax?: number;
  /** Labelled by this person, and when (issue 25). */
  labelledBy?: number;
  labelledStart?: number;
  labelledEnd?: number;
  /** A measured feature's range (issue 25), from the ROI's stored measures. */
  feature?: { name: FeatureFilter; min?: number; max?: number; dialect: DialectName };
}

export interface BrowseSort {
  field: SortField;
  dir: 'asc' | 'desc';
}

/** A position in a sorted list: the sort value and the id that breaks ties. */
export type Keyset = [number, number];

type Eb = ExpressionBuilder<Database & { r: Database['rois'] }, 'r'>;

const SORT_COLUMN = { Roi_time: 'r.roi_time', size: 'r.size_px', confidence: 'r.confidence', id: 'r.id' } as const;

/** The sort value as SQL; a missing confidence sorts as -1 so every row has a place. */
function sortValue(eb: Eb, field: SortField): Expression<number> {
  return field === 'confidence' ? eb.fn.coalesce('r.confidence', sql<number>`-1`) : eb.ref(SORT_COLUMN[field]);
}

export const sortValueOf = (
  row: { roi_time: number; size_px: number; confidence: number | null; id: number },
  field: SortField,
) =>
  field === 'Roi_time' ? row.roi_time : field === 'size' ? row.size_px : field === 'confidence' ? (row.confidence ?? -1) : row.id;

/**
 * The ROI's stored measure within a range: its features' JSON read in SQL (SQLite's json_extract, PostgreSQL's ->>
 * on the text cast to json). The name is one of FEATURE_FILTERS, checked by the contract, and sent as a parameter.
 */
function featureWithin(eb: Eb, feature: NonNullable<BrowseFilter['feature']>): Expression<SqlBool> {
  const read =
    feature.dialect === 'postgres'
      ? sql<number>`(f.measures::json ->> ${feature.name})::double precision`
      : sql<number>`json_extract(f.measures, ${`$.${feature.name}`})`;
  return eb.exists(
    eb
      .selectFrom('roi_features as f')
      .select(sql`1`.as('one'))
      .whereRef('f.roi_id', '=', 'r.id')
      .where((inner) => {
        const bounds: Expression<SqlBool>[] = [];
        if (feature.min !== undefined) bounds.push(inner(read, '>=', feature.min));
        if (feature.max !== undefined) bounds.push(inner(read, '<=', feature.max));
        return inner.and(bounds);
      }),
  );
}

function where(eb: Eb, f: BrowseFilter): Expression<SqlBool> {
  const and: Expression<SqlBool>[] = [];
  const s = f.source;
  and.push(eb('r.deleted_at', s.kind === 'recycle' ? 'is not' : 'is', null));
  if ('ippIds' in s && s.ippIds !== null) and.push(s.ippIds.length === 0 ? sql<SqlBool>`1 = 0` : eb('r.ipp_id', 'in', s.ippIds));
  if (s.kind === 'folders') {
    and.push(
      s.folderIds.length === 0
        ? sql<SqlBool>`1 = 0`
        : eb.exists(
            eb
              .selectFrom('folder_rois as fr')
              .select(sql`1`.as('one'))
              .whereRef('fr.roi_id', '=', 'r.id')
              .where('fr.folder_id', 'in', s.folderIds),
          ),
    );
  }
  if (s.kind === 'favorite') and.push(eb('r.favorite_at', 'is not', null));
  if (s.kind === 'review') and.push(s.reviewed ? eb('r.review_status', 'in', [2, 3]) : eb('r.review_status', '=', 1));
  if (f.ippId !== undefined) and.push(eb('r.ipp_id', '=', f.ippId));
  // The groups as literals, not parameters: SQLite can then match them against the partial indexes of the HI and UI
  // groups (migration 0008).
  if (f.kind === 2) and.push(eb('r.hi', '=', sql.lit(1)));
  if (f.kind === 1) and.push(eb.and([eb('r.hi', '=', sql.lit(0)), eb('r.roi_labelindex', '!=', sql.lit(0))]));
  if (f.kind === 0) and.push(eb.and([eb('r.hi', '=', sql.lit(0)), eb('r.roi_labelindex', '=', sql.lit(0))]));
  if (f.classKey !== undefined) and.push(f.classKey === 0 ? eb('r.class_id', 'is', null) : eb('r.class_id', '=', f.classKey));
  if (f.start !== undefined) and.push(eb('r.roi_time', '>=', f.start));
  if (f.end !== undefined) and.push(eb('r.roi_time', '<=', f.end));
  if (f.sizeMin !== undefined) and.push(eb('r.size_px', '>=', f.sizeMin));
  if (f.sizeMax !== undefined) and.push(eb('r.size_px', '<=', f.sizeMax));
  if (f.esdMinUm !== undefined || f.esdMaxUm !== undefined) and.push(esdWithin(eb, f.esdMinUm, f.esdMaxUm));
  if (f.flag !== undefined) and.push(flagged(eb, f.flag));
  if (f.confMin !== undefined) and.push(eb('r.confidence', '>=', f.confMin));
  if (f.confMax !== undefined) and.push(eb('r.confidence', '<=', f.confMax));
  if (f.labelledBy !== undefined) and.push(eb('r.labelled_by', '=', f.labelledBy));
  if (f.labelledStart !== undefined) and.push(eb('r.labelled_at', '>=', f.labelledStart));
  if (f.labelledEnd !== undefined) and.push(eb('r.labelled_at', '<=', f.labelledEnd));
  if (f.feature && (f.feature.min !== undefined || f.feature.max !== undefined)) and.push(featureWithin(eb, f.feature));
  return eb.and(and);
}

function flagged(eb: Eb, flag: RoiFlagFilter): Expression<SqlBool> {
  if (flag === 'any') return eb('r.flags', '!=', sql.lit(0));
  if (flag === 'none') return eb('r.flags', '=', sql.lit(0));
  return sql<SqlBool>`(r.flags & ${sql.lit(ROI_FLAG_BITS[flag])}) != 0`;
}

/**
 * The ESD range in µm as a condition on the area in pixels: ESD = 2·√(area/π)·pixel size, so ESD ≥ d ⇔
 * area·pixel size² ≥ π·d²/4 (no square root or division in SQL). The pixel size is the ROI's own where an import gave
 * one (issue 37), else its station's; an ROI with neither matches no bound.
 */
function esdWithin(eb: Eb, min: number | undefined, max: number | undefined): Expression<SqlBool> {
  const pixel = sql<number | null>`coalesce(r.pixel_size_um, i.pixel_size_um)`;
  const scaled = sql<number>`r.size_px * ${pixel} * ${pixel}`;
  let station = eb
    .selectFrom('ipps as i')
    .select(sql`1`.as('one'))
    .whereRef('i.id', '=', 'r.ipp_id')
    .where(pixel, 'is not', null);
  if (min !== undefined) station = station.where(scaled, '>=', (Math.PI * min * min) / 4);
  if (max !== undefined) station = station.where(scaled, '<=', (Math.PI * max * max) / 4);
  return eb.exists(station);
}

/**
 * Rows after (or before, `reverse`) a keyset position in the sort order, as a row-value comparison: both SQLite and
 * PostgreSQL seek the (station, sort value, id) index straight to it, where the equivalent OR of two comparisons
 * makes them scan from the start of the range (15x slower at position 500,000 of a 10M-ROI station).
 */
function beyond(eb: Eb, sort: BrowseSort, at: Keyset, reverse = false): Expression<SqlBool> {
  const forward = (sort.dir === 'asc') !== reverse;
  const op = sql.raw(forward ? '>' : '<');
  return sql<SqlBool>`(${sortValue(eb, sort.field)}, ${eb.ref('r.id')}) ${op} (${at[0]}, ${at[1]})`;
}

/** The columns of an ROI item: the summary plus state, review and the class's attention flag. */
function items(db: Kysely<Database>) {
  return summaries(db)
    .leftJoin('ai_labels as l', 'l.roi_id', 'r.id')
    .select([
      'l.top as ai_top',
      'r.status',
      'r.collect_status',
      'r.is_demo_image',
      'r.invalid',
      'r.review_status',
      'r.deleted_at',
      'c.attention',
    ]);
}
export type RoiItemRow = Awaited<ReturnType<ReturnType<typeof items>['execute']>>[number];

export async function page(
  db: Kysely<Database>,
  f: BrowseFilter,
  sort: BrowseSort,
  limit: number,
  at: { after?: Keyset; offset?: number },
): Promise<RoiItemRow[]> {
  let q = items(db).where((eb) => where(eb as unknown as Eb, f));
  if (at.after) q = q.where((eb) => beyond(eb as unknown as Eb, sort, at.after!));
  q = q
    .orderBy((eb) => sortValue(eb as unknown as Eb, sort.field), sort.dir)
    .orderBy('r.id', sort.dir)
    .limit(limit);
  if (!at.after && at.offset) q = q.offset(at.offset);
  return q.execute();
}

/** The ids of the first `limit` matching ROIs in the list's order ("select all matching"). */
export async function matchingIds(db: Kysely<Database>, f: BrowseFilter, sort: BrowseSort, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('rois as r')
    .select('r.id')
    .where((eb) => where(eb as unknown as Eb, f))
    .orderBy((eb) => sortValue(eb as unknown as Eb, sort.field), sort.dir)
    .orderBy('r.id', sort.dir)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** The items of these ids (any state), by id. */
export function findItems(db: Kysely<Database>, ids: readonly number[]): Promise<RoiItemRow[]> {
  return items(db).where('r.id', 'in', ids).orderBy('r.id').execute();
}

/** How many ROIs match, counting at most `cap` of them (a count of millions would cost a scan). */
export async function countUpTo(db: Kysely<Database>, f: BrowseFilter, cap: number): Promise<number> {
  const inner = db
    .selectFrom('rois as r')
    .select('r.id')
    .where((eb) => where(eb as unknown as Eb, f))
    .limit(cap);
  const row = await db
    .selectFrom(inner.as('m'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids just before and after a position in the list. */
export async function adjacent(db: Kysely<Database>, f: BrowseFilter, sort: BrowseSort, at: Keyset) {
  const one = (reverse: boolean) => {
    const dir = (sort.dir === 'asc') !== reverse ? 'asc' : 'desc';
    return db
      .selectFrom('rois as r')
      .select('r.id')
      .where((eb) => where(eb as unknown as Eb, f))
      .where((eb) => beyond(eb as unknown as Eb, sort, at, reverse))
      .orderBy((eb) => sortValue(eb as unknown as Eb, sort.field), dir)
      .orderBy('r.id', dir)
      .limit(1)
      .executeTakeFirst();
  };
  const [previous, next] = await Promise.all([one(true), one(false)]);
  return { previous_id: previous?.id ?? null, next_id: next?.id ?? null };
}

export function findItem(db: Kysely<Database>, id: number) {
  return items(db).where('r.id', '=', id).executeTakeFirst();
}
