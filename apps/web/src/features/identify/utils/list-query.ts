import {
  CATEGORY,
  type FeatureFilter,
  type RELATIVE_STARTS,
  type RoiFlagFilter,
  type RoiListQuery,
  type SortField,
} from '@ipp/contracts';

export type RelativeStart = (typeof RELATIVE_STARTS)[number];
export type RecognitionGroup = 'ai' | 'hi' | 'ui';
export type SizeUnit = 'px' | 'um';

/** The capture-time filter: none, one of the relative starts of spec §5, or an absolute range. */
export type TimeFilter =
  | { kind: 'all' }
  | { kind: 'relative'; start: RelativeStart }
  /** 'YYYY-MM-DD HH:mm:ss' in the viewer's zone. */
  | { kind: 'range'; start: string; end: string };

export interface Filters {
  dataIndex: RecognitionGroup | null;
  time: TimeFilter;
  /**
   * Object size range: px² of its area, or µm of its equivalent spherical diameter (issue 22; images of stations
   * without a pixel size match no µm bound).
   */
  sizeMin: number | null;
  sizeMax: number | null;
  sizeUnit: SizeUnit;
  sort: SortField;
  order: 'asc' | 'desc';
  /** Review queue (-7): 1 = reviewed, 0 = waiting. */
  reviewed: 0 | 1;
  /** The instrument's state at capture (issue 23); null: any. */
  flag: RoiFlagFilter | null;
  /** Confidence range, 0-1 (issue 25); null: unbounded. */
  confMin: number | null;
  confMax: number | null;
  /** Labelled by this person (user id), and between these times (epoch ms); null: anyone, any time. */
  labelledBy: number | null;
  labelledBetween: [number, number] | null;
  /** A measured feature's range (issue 25); the bounds apply only with a feature chosen. */
  feature: FeatureFilter | null;
  featureMin: number | null;
  featureMax: number | null;
}

/** How many of the "more filters" (confidence, who labelled, when) are set. */
export const moreFiltersCount = (f: Filters) =>
  [
    f.confMin !== null || f.confMax !== null,
    f.labelledBy !== null,
    f.labelledBetween !== null,
    f.feature !== null && (f.featureMin !== null || f.featureMax !== null),
  ].filter(Boolean).length;

export const DEFAULT_FILTERS: Filters = {
  dataIndex: null,
  time: { kind: 'all' },
  sizeMin: null,
  sizeMax: null,
  sizeUnit: 'px',
  sort: 'Roi_time',
  order: 'desc',
  reviewed: 0,
  flag: null,
  confMin: null,
  confMax: null,
  labelledBy: null,
  labelledBetween: null,
  feature: null,
  featureMin: null,
  featureMax: null,
};

/** The upper size bound sent for "no upper bound" (the largest 32-bit size, fine for both databases). */
export const SIZE_UNBOUNDED = 2_147_483_647;

/** Where the list is taken from: a category, a node of its tree, the station and team it is scoped to. */
export interface Scope {
  categoryId: number;
  code?: string;
  ippId?: number;
  groupId?: number;
}

/** Site images (-100) show one station: nothing is listed until one is chosen. */
export const needsStation = (categoryId: number) => categoryId === CATEGORY.SITE;
/** Categories that take a station: required for site images, a narrowing for the IPP gallery. */
export const takesStation = (categoryId: number) => categoryId === CATEGORY.SITE || categoryId === CATEGORY.SITE_GALLERY;

/** The query of GET /roi/index (and get-adjacent-roi) for a scope and filters; null while a station is missing. */
export function listQuery(scope: Scope, filters: Filters, tz: number): RoiListQuery | null {
  if (needsStation(scope.categoryId) && scope.ippId === undefined) return null;
  const { time } = filters;
  // The server reads a lone lower bound as an exact size (spec §5); the form means "at least", so it sends both.
  const bounded = filters.sizeUnit === 'px' && (filters.sizeMin !== null || filters.sizeMax !== null);
  const inUm = filters.sizeUnit === 'um';
  return {
    category_id: scope.categoryId,
    code: scope.code,
    ipp_id: takesStation(scope.categoryId) ? scope.ippId : undefined,
    group_id: scope.groupId,
    dataIndex: filters.dataIndex ?? undefined,
    reviewed_type: scope.categoryId === CATEGORY.REVIEW ? filters.reviewed : undefined,
    Roi_time_s: time.kind === 'all' ? undefined : time.start,
    Roi_time_e: time.kind === 'range' ? time.end : undefined,
    coordRange_0: bounded ? (filters.sizeMin ?? 0) : undefined,
    coordRange_1: bounded ? (filters.sizeMax ?? SIZE_UNBOUNDED) : undefined,
    esd_min_um: inUm ? (filters.sizeMin ?? undefined) : undefined,
    esd_max_um: inUm ? (filters.sizeMax ?? undefined) : undefined,
    flag: filters.flag ?? undefined,
    conf_min: filters.confMin ?? undefined,
    conf_max: filters.confMax ?? undefined,
    labelled_by: filters.labelledBy ?? undefined,
    labelled_s: filters.labelledBetween?.[0],
    labelled_e: filters.labelledBetween?.[1],
    feature:
      filters.feature !== null && (filters.featureMin !== null || filters.featureMax !== null) ? filters.feature : undefined,
    feature_min: filters.feature !== null ? (filters.featureMin ?? undefined) : undefined,
    feature_max: filters.feature !== null ? (filters.featureMax ?? undefined) : undefined,
    sorttype: filters.order,
    diysort: filters.sort,
    tz,
  };
}

/** Absolute times as the server reads them: the viewer's local time (with `tz`). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Spec §9: a folder is listed 1000 images a page (GET /folder/get-folder-by-roi-index). */
export const FOLDER_PAGE_SIZE = 1000;

/** The parts of a list query that only say where and in which order: everything else is a filter. */
const PLACE_AND_ORDER: ReadonlySet<string> = new Set(['category_id', 'code', 'ipp_id', 'group_id', 'sorttype', 'diysort', 'tz']);

/**
 * The folder a list query shows whole, or null: a folder node (`f:<id>`) with no filter but its order is spec §9's
 * folder listing, 1000 a page; with any filter the list stays on GET /roi/index, which filters (200 a page).
 */
export function wholeFolderOf(query: RoiListQuery): number | null {
  const folder = /^f:(\d{1,10})$/.exec(query.code ?? '');
  if (!folder) return null;
  const filtered = Object.entries(query).some(([key, value]) => value !== undefined && !PLACE_AND_ORDER.has(key));
  return filtered ? null : Number(folder[1]);
}
