import { ACTION } from './constants.ts';
import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import { TaxonSchema } from './taxa.ts';
import { CLASS_NAME_PATTERN } from './classes.ts';
import { ROI_FLAG_FILTERS, RoiSummarySchema } from './views.ts';

/** The latest time a JavaScript Date holds, ms: the bound of a time filter. */
const MAX_TIME_MS = 8.64e15;

/**
 * Image categories (spec §4, our reading in docs/decisions.md "Images"). Negative ids are galleries and views;
 * a positive category_id names one ordinary folder.
 */
export const CATEGORY = {
  XCUBE: -1,
  TEAM: -2,
  SITE_GALLERY: -3,
  FAVORITE: -4,
  TEMPORARY: -5,
  EXAMPLE: -6,
  REVIEW: -7,
  RECYCLE: -8,
  SITE: -100,
  ALL: -1000,
  /** The root of a team's ordinary folders (each folder is also addressable as category_id = its id). */
  FOLDERS: 0,
} as const;
export type CategoryId = (typeof CATEGORY)[keyof typeof CATEGORY];

/** Categories whose tree nodes are stored folders (roi-index rows). */
export const FOLDER_CATEGORIES: readonly number[] = [
  CATEGORY.XCUBE,
  CATEGORY.TEAM,
  CATEGORY.SITE_GALLERY,
  CATEGORY.TEMPORARY,
  CATEGORY.FOLDERS,
];

export const CategoryIdQuery = z.coerce.number().int().min(-1000).max(2_147_483_647);

/** GET /roi/categorys: the galleries and views the caller may open, in menu order. */
export const CategorySchema = z.object({
  id: z.number().int(),
  /** i18n key suffix: identify.category.<key>. */
  key: z.enum([
    'xcube',
    'team',
    'site_gallery',
    'favorite',
    'temporary',
    'example',
    'review',
    'recycle',
    'site',
    'all',
    'folders',
  ]),
  /** ROIs in it (for the recycle bin and review queue: what is waiting). */
  count: z.number().int(),
  /** The caller may create folders (classes) in it. */
  can_create: z.boolean(),
});
export type Category = z.infer<typeof CategorySchema>;

/**
 * A node of the gallery/class tree. `code` is opaque: send it back as `code` to list the node's ROIs.
 * Folder nodes carry their roi-index id; class nodes (recognition groups of a station, review, recycle) carry
 * the class id instead.
 */
export interface TreeNode {
  code: string;
  title: string;
  count: number;
  roi_index_id: number | null;
  class_id: number | null;
  /** Highlighted class (spec §3 attention). */
  attention: boolean;
  /** Has a toolbar shortcut for the caller. */
  toolbar: boolean;
  /** A system class or a fixed group: cannot be renamed or deleted. */
  system: boolean;
  /** A class the team hides from its plain users; only administrators get such nodes (docs/decisions.md). */
  hidden?: boolean;
  /** A team-gallery folder holding demo images: no class operation applies (spec §6). */
  demo_images?: boolean;
  /** A folder node: the folder's category (spec §3 "Folder"), its team and station (null where none applies). */
  category_id?: number;
  group_id?: number | null;
  ipp_id?: number | null;
  /** Kind of node: a group of nodes (AI/HI/UI, a station), a stored folder, or a class. */
  kind: 'group' | 'folder' | 'class';
  children: TreeNode[];
}
export const TreeNodeSchema: z.ZodType<TreeNode> = z
  .lazy(() =>
    z.object({
      code: z.string(),
      title: z.string(),
      count: z.number().int(),
      roi_index_id: z.number().int().nullable(),
      class_id: z.number().int().nullable(),
      attention: z.boolean(),
      toolbar: z.boolean(),
      system: z.boolean(),
      hidden: z.boolean().optional(),
      /** A team-gallery folder holding demo images: no class operation applies (spec §6). */
      demo_images: z.boolean().optional(),
      category_id: z.number().int().optional(),
      group_id: z.number().int().nullable().optional(),
      ipp_id: z.number().int().nullable().optional(),
      kind: z.enum(['group', 'folder', 'class']),
      children: z.array(TreeNodeSchema),
    }),
  )
  .meta({ id: 'TreeNode' }); // a recursive schema is a named component in the OpenAPI document

export const TreeQuerySchema = z.object({
  category_id: CategoryIdQuery,
  /** Station, for the site gallery (-3) and site images (-100). */
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Superadmin: whose team (the others always see their own). */
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Show empty classes too (hidden by default, spec §4). */
  show_empty: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  /** Review queue (-7): 1 counts the reviewed (approved or rejected), like the list of the same view. */
  reviewed_type: z.coerce.number().int().min(0).max(1).optional(),
});
export type TreeQuery = z.input<typeof TreeQuerySchema>;

/** Relative starts a time range may use without an end (spec §5). */
export const RELATIVE_STARTS = [
  '-24 hour',
  '-3 day',
  '-7 day',
  '-15 day',
  '-31 day',
  '-3 month',
  '-6 month',
  '-12 month',
] as const;

export const SORT_FIELDS = ['Roi_time', 'size', 'confidence', 'id'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/**
 * Measured features a list can be filtered by (issue 25): the shape measures of the segmented object, without unit
 * (sizes have their own filters, in px² and µm).
 */
export const FEATURE_FILTERS = ['elongation', 'eccentricity', 'circularity', 'solidity', 'convexity', 'mean_intensity'] as const;
export type FeatureFilter = (typeof FEATURE_FILTERS)[number];

/** Query fields of spec §3 for listing ROIs (GET /roi/index and friends). */
export const RoiListQuerySchema = z.object({
  category_id: CategoryIdQuery,
  /** A tree node's code; absent = the whole category. */
  code: z.string().trim().max(64).optional(),
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Recognition group: ai, hi or ui. */
  dataIndex: z.enum(['ai', 'hi', 'ui']).optional(),
  class_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Review queue: 1 = reviewed (approved or rejected), otherwise waiting. */
  reviewed_type: z.coerce.number().int().min(0).max(1).optional(),
  /** Start: epoch ms, 'YYYY-MM-DD HH:mm:ss' (viewer's tz) or one of RELATIVE_STARTS. */
  Roi_time_s: z.string().trim().max(32).optional(),
  Roi_time_e: z.string().trim().max(32).optional(),
  /** Object size range in pixels; coordRange_1 defaults to coordRange_0 (spec §5). */
  coordRange_0: z.coerce.number().int().min(0).max(MAX_ID).optional(),
  coordRange_1: z.coerce.number().int().min(0).max(MAX_ID).optional(),
  /**
   * Object size range as equivalent spherical diameter, µm (issue 22): the object's area and its station's pixel
   * size; images of stations without a pixel size do not match.
   */
  esd_min_um: z.coerce.number().min(0).max(1_000_000).optional(),
  esd_max_um: z.coerce.number().min(0).max(1_000_000).optional(),
  /** The instrument's state at capture (issue 23): any flag, no flag, or one flag (ROI_FLAGS). */
  flag: z.enum(ROI_FLAG_FILTERS).optional(),
  /** Confidence range, 0-1 (issue 25): ROIs without a confidence match no bound. */
  conf_min: z.coerce.number().min(0).max(1).optional(),
  conf_max: z.coerce.number().min(0).max(1).optional(),
  /** Labelled (validated) by this person (issue 25). */
  labelled_by: z.coerce.number().int().positive().max(MAX_ID).optional(),
  /** Labelled by a person between these times, epoch ms (issue 25). */
  labelled_s: z.coerce.number().int().min(0).max(MAX_TIME_MS).optional(),
  labelled_e: z.coerce.number().int().min(0).max(MAX_TIME_MS).optional(),
  /** A measured feature's range (issue 25); images not measured yet match no bound. */
  feature: z.enum(FEATURE_FILTERS).optional(),
  feature_min: z.coerce.number().min(-1_000_000).max(1_000_000).optional(),
  feature_max: z.coerce.number().min(-1_000_000).max(1_000_000).optional(),
  sorttype: z.enum(['asc', 'desc']).default('desc'),
  diysort: z.enum(SORT_FIELDS).default('Roi_time'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /** Keyset cursor from the previous page's `next`; when given, `page` is ignored. */
  after: z.string().trim().max(64).optional(),
  /** Minutes east of UTC of the viewer, for dates without a zone. */
  tz: z.coerce.number().int().min(-720).max(840).default(0),
});
export type RoiListQuery = z.input<typeof RoiListQuerySchema>;
export type RoiListQueryParsed = z.output<typeof RoiListQuerySchema>;

/** GET /roi/matching-ids: every ROI a list query matches ("select all matching"), at most MAX_MATCHING. */
export const MAX_MATCHING = 10_000;
export const MatchingIdsQuerySchema = RoiListQuerySchema.omit({ limit: true, page: true, after: true });
export const MatchingIdsSchema = z.object({
  ids: z.array(z.number().int()),
  /** More ROIs match than MAX_MATCHING: `ids` are the first of them in the list's order. */
  capped: z.boolean(),
});
export type MatchingIds = z.infer<typeof MatchingIdsSchema>;

export const ReviewStatusSchema = z.enum(['none', 'pending', 'approved', 'rejected']);
export type ReviewStatus = z.infer<typeof ReviewStatusSchema>;

/** An ROI as the identify workspace shows it (spec §3 Image item). */
export const RoiItemSchema = RoiSummarySchema.extend({
  status: z.number().int(),
  collect_status: z.number().int(),
  is_demo_image: z.number().int(),
  invalid: z.boolean(),
  /** Position of the ROI in its station's capture sequence (we use its id: devices send no frame index). */
  index: z.number().int(),
  /** Its class is an attention class. */
  attention: z.boolean(),
  review_status: ReviewStatusSchema,
  /** In the recycle bin since; null otherwise. */
  deleted_at: z.number().int().nullable(),
  /** The team model's best classes for it with their calibrated probabilities, best first (at most 3; none without one). */
  ai_top: z.array(z.object({ class_id: z.number().int(), p: z.number() })),
});
export type RoiItem = z.infer<typeof RoiItemSchema>;

/**
 * GET /roi/index: one page; the envelope's count is the total matching (capped, see `count_capped`), or -1 on a page
 * reached by cursor (`after`), which is not counted again.
 */
export const RoiPageSchema = z.object({
  items: z.array(RoiItemSchema),
  /** Cursor for the next page (keyset); null on the last page. */
  next: z.string().nullable(),
  /** The total stopped counting at this many. */
  count_capped: z.boolean(),
});
export type RoiPage = z.infer<typeof RoiPageSchema>;

export const AdjacentQuerySchema = RoiListQuerySchema.omit({ limit: true, page: true, after: true }).extend({
  roi_id: z.coerce.number().int().positive().max(MAX_ID),
});
export type AdjacentQuery = z.input<typeof AdjacentQuerySchema>;
export const AdjacentSchema = z.object({ previous_id: z.number().int().nullable(), next_id: z.number().int().nullable() });

// ---------------------------------------------------------------------------------------------------------------
// Bulk actions (docs/actions.md). The server owns which codes a caller may use where; the web draws buttons
// from GET /roi/actions and labels them from its translations (identify.action.<code>).

export { ACTION } from './constants.ts';

/** Every code, in the order the spec lists them (a tuple for zod's enum). */
export const ACTION_CODES = [
  ACTION.DELETE,
  ACTION.REDO_HI,
  ACTION.COPY_TO_HI,
  ACTION.MOVE_TO_HI,
  ACTION.COPY_TO_SITE_GALLERY,
  ACTION.REMOVE_FROM_SITE_GALLERY,
  ACTION.COPY_TO_TEAM,
  ACTION.MOVE_TO_TEAM,
  ACTION.REMOVE_FROM_TEAM,
  ACTION.COPY_TO_FOLDER,
  ACTION.MOVE_TO_FOLDER,
  ACTION.REMOVE_FROM_FOLDER,
  ACTION.COPY_TO_TEMPORARY,
  ACTION.FAVORITE,
  ACTION.UNFAVORITE,
  ACTION.SUBMIT_REVIEW,
  ACTION.APPROVE,
  ACTION.REJECT,
  ACTION.BACK_TO_PENDING,
  ACTION.RESTORE,
  ACTION.VALIDATE,
  ACTION.SET_CLASS,
  ACTION.DUBIOUS,
  ACTION.COPY_TO_XCUBE,
  ACTION.REMOVE_FROM_XCUBE,
  ACTION.COPY_CLASS_TO_TEAM,
  ACTION.REMOVE_CLASS_FROM_TEAM,
] as const;
export type ActionCode = (typeof ACTION_CODES)[number];

/** What an action needs besides the selection. */
export const ActionTargetSchema = z.enum(['none', 'folder', 'class', 'title']);
export type ActionTarget = z.infer<typeof ActionTargetSchema>;

export const ActionSchema = z.object({
  code: z.string(),
  target: ActionTargetSchema,
  /** Ask before doing it (spec §8: delete, recycle, move, copy, remove). */
  confirm: z.boolean(),
  danger: z.boolean(),
  /** Offered only while no AI-labelled ROI is selected. */
  no_ai: z.boolean(),
  /** Only for one ROI at a time, in the detail pane. */
  single: z.boolean(),
});
export type Action = z.infer<typeof ActionSchema>;

export const ActionsQuerySchema = z.object({
  category_id: CategoryIdQuery,
  reviewed_type: z.coerce.number().int().min(0).max(1).optional(),
});
export const ActionsSchema = z.object({
  actions: z.array(ActionSchema),
  /** Why nothing is offered here, as an i18n-free reason code (e.g. example ROIs). */
  reason: z.enum(['example', 'role', 'none']).nullable(),
});
export type Actions = z.infer<typeof ActionsSchema>;

/** POST /roi/save-move: one bulk action on a selection, in one transaction. */
export const BulkActionBodySchema = z.object({
  type: z.enum(ACTION_CODES),
  /** The category the selection was made in (decides which actions are allowed). */
  category_id: z.number().int().min(-1000).max(MAX_ID),
  /** The node it was made in (the folder 'remove' and 'move' take ROIs out of). */
  code: z.string().max(64).optional(),
  reviewed_type: z.number().int().min(0).max(1).optional(),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000),
  /** Folder id (target 'folder') or class id (target 'class'). */
  target_id: z.number().int().positive().max(MAX_ID).optional(),
  /** New temporary class name (target 'title'). */
  title: z.string().trim().max(64).optional(),
  /** Target class by its label index (21/23), instead of target_id. */
  change_roi_labelindex: z.number().int().min(1).max(999).optional(),
});
export type BulkActionBody = z.infer<typeof BulkActionBodySchema>;

/**
 * The spec sends save-move's parameters in the query (ipp_id, category_id, target_id, type, hi,
 * change_roi_labelindex); the selection travels in the body. Query values fill what the body leaves out.
 */
export const BulkActionQuerySchema = z.object({
  type: z.enum(ACTION_CODES).optional(),
  category_id: z.coerce.number().int().min(-1000).max(MAX_ID).optional(),
  target_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  ipp_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
  hi: z.coerce.number().int().min(0).max(1).optional(),
  change_roi_labelindex: z.coerce.number().int().min(1).max(999).optional(),
});
export const BulkActionRequestBodySchema = BulkActionBodySchema.partial({ type: true, category_id: true });

export const BulkResultSchema = z.object({
  /** ROIs the action changed. */
  affected: z.number().int(),
  /** ROIs it left alone (already there, not in the source, ...). */
  unchanged: z.number().int(),
  /** The folder it created (code 54). */
  roi_index_id: z.number().int().nullable(),
  /** The action as the caller's last, undoable (POST /roi/undo); null when it changed nothing. */
  bulk_id: z.number().int().nullable(),
});
export type BulkResult = z.infer<typeof BulkResultSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Folders and classes

/** Folder (class) titles follow the class naming rule. */
export const CLASS_TITLE_PATTERN = CLASS_NAME_PATTERN;

export const FolderSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  code: z.string(),
  ipp_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  category_id: z.number().int().min(-1000).max(MAX_ID),
  count: z.number().int(),
  attention: z.boolean(),
  status: z.number().int(),
});
export type Folder = z.infer<typeof FolderSchema>;

export const NewFolderBodySchema = z.object({
  title: z.string().trim().max(64),
  category_id: z.number().int().min(-1000).max(MAX_ID),
  /** A station; spec §7: -6 with category_id -6 (the example ROIs' library has no station). */
  ipp_id: z.union([z.literal(-6), z.number().int().positive().max(MAX_ID)]).optional(),
  group_id: z.number().int().positive().max(MAX_ID).optional(),
  /** Title of the node it is created under, for the success message. */
  parent: z.string().max(64).optional(),
});
export type NewFolderBody = z.infer<typeof NewFolderBodySchema>;

/** A folder (roi_index_id) or an HI class (class_id): exactly one of the two. */
const folderOrClass = {
  roi_index_id: z.number().int().positive().max(MAX_ID).optional(),
  class_id: z.number().int().positive().max(MAX_ID).optional(),
};
export const RenameBodySchema = z.object({ ...folderOrClass, title: z.string().trim().max(64) });
export const FolderIdBodySchema = z.object(folderOrClass);

/** POST /roi-index/save answers what it created: a folder, or (under site images, -100) an HI class. */
export const CreatedSchema = z.object({
  roi_index_id: z.number().int().nullable(),
  class_id: z.number().int().nullable(),
  title: z.string(),
  /** The new node's tree code (send it as `code` to list its ROIs). */
  code: z.string(),
  /** A folder's stored code (roi_index_code of the folder calls); null for a class. */
  roi_index_code: z.string().nullable(),
  /**
   * Spec §3 "Folder": the category it was made in (-100 for an HI class), its team and its station (null where none
   * applies: a class, the Xcube library's team, a station outside the IPP gallery).
   */
  category_id: z.number().int(),
  group_id: z.number().int().nullable(),
  ipp_id: z.number().int().nullable(),
});
export type Created = z.infer<typeof CreatedSchema>;
export const BatchDeleteBodySchema = z.object({ ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(1000) });
export const ChangeStatusBodySchema = z.object({
  ...folderOrClass,
  attention: z.boolean().optional(),
  /** 1 visible, 0 hidden. A class: shown to or hidden from the plain users of one team (the caller's own). */
  status: z.number().int().min(0).max(1).optional(),
  /** Superadmin: the team a class is shown to or hidden from. */
  group_id: z.number().int().positive().max(MAX_ID).optional(),
});

/** POST /folder/operate-folder: a whole class (folder) copied or moved into another place, or removed. */
export const OperateFolderBodySchema = z.object({
  type: z.enum(['copy', 'move', 'remove', 'to_hi']),
  roi_index_id: z.number().int().positive().max(MAX_ID),
  /** Target folder, for the images only (copy/move into an existing folder): its stored code or its tree code f:<id>. */
  roi_index_code: z.string().max(64).optional(),
  /** Target category, for the class itself (a folder of the same title is made there, or reused). */
  category_id: z.number().int().min(-1000).max(MAX_ID).optional(),
  /** Station of a target IPP gallery (-3). */
  ipp_id: z.number().int().positive().max(MAX_ID).optional(),
});
export type OperateFolderBody = z.infer<typeof OperateFolderBodySchema>;

export const ToolbarItemSchema = z.object({
  id: z.number().int(),
  category_id: z.number().int().min(-1000).max(MAX_ID),
  code: z.string(),
  title: z.string(),
});
export type ToolbarItem = z.infer<typeof ToolbarItemSchema>;
export const NewToolbarBodySchema = z.object({
  category_id: z.number().int().min(-1000).max(MAX_ID),
  code: z.string().min(1).max(64),
  title: z.string().trim().min(1).max(64),
});
export const IdListBodySchema = z.object({ id: z.number().int().positive().max(MAX_ID) });

/** POST /roi-group/re-bin: restore (re) or purge (delete) ROIs in the recycle bin. */
export const ReBinBodySchema = z.object({
  action: z.enum(['re', 'delete']),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000),
});
/** POST /roi-group/delete: empty the recycle bin (-8) or the caller's temporary classes (-5). */
export const GroupDeleteBodySchema = z.object({ category_id: z.number().int().min(-1000).max(MAX_ID) });

/** GET /tool/sys-init: the class list, localized and sorted by title. */
export const SysInitQuerySchema = z.object({
  language: z.enum(['zh', 'en']).optional(),
  /** Spec §7: `sort -title` (by title, descending) when the caller names none. */
  sort: z.enum(['title', '-title']).default('-title'),
  /** Superadmin: the team whose visibility `visible` reports (others answer for their own team). */
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});
export const ClassItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  label_index: z.number().int().nullable(),
  system: z.boolean(),
  /** Shown to the plain users of the caller's team (the superadmin's: the team named by group_id; none: true). */
  visible: z.boolean(),
  attention: z.boolean(),
  /** Who owns it: system, shared (the superadmin's) or a team (docs/decisions.md "Class ownership"). */
  owner: z.enum(['system', 'shared', 'team']),
  /** The caller may rename, delete or highlight it (its team's administrators, or the superadmin). */
  editable: z.boolean(),
  /** Its taxon as the viewer's team maps it (the superadmin's: the team named by group_id); null: none. */
  taxon: TaxonSchema.nullable(),
});
export type ClassItem = z.infer<typeof ClassItemSchema>;

/** Re-identification request (spec §3): time range, AI class, the instrument's dev_id. */
export const ReidentifyBodySchema = z.object({
  dev_id: z.string().trim().min(1).max(32),
  Roi_time_s: z.string().trim().max(32).optional(),
  Roi_time_e: z.string().trim().max(32).optional(),
  class_id: z.number().int().positive().max(MAX_ID).optional(),
  tz: z.number().int().min(-720).max(840).default(0),
});
export type ReidentifyBody = z.infer<typeof ReidentifyBodySchema>;
export const ReidentifyResultSchema = z.object({ job_id: z.number().int(), rois: z.number().int() });

export const OperateResultSchema = z.object({ affected: z.number().int(), roi_index_id: z.number().int().nullable() });
export type OperateResult = z.infer<typeof OperateResultSchema>;

/** GET /folder/get-folder-by-roi-index: the ROIs of one folder, 1000 a page, oldest first. */
export const FolderRoisQuerySchema = z.object({
  roi_index_id: z.coerce.number().int().positive().max(MAX_ID),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  sorttype: z.enum(['asc', 'desc']).default('asc'),
  diysort: z.enum(SORT_FIELDS).default('Roi_time'),
});
/** GET /roi/get-roi-by-code: the ROIs of the folder with that code, 200 a page, newest first. */
export const RoisByCodeQuerySchema = z.object({
  roi_index_code: z.string().trim().min(1).max(64),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  sorttype: z.enum(['asc', 'desc']).default('desc'),
  diysort: z.enum(SORT_FIELDS).default('Roi_time'),
});

/** POST /roi/operator-site-roi: copy ROIs into their station's IPP gallery, or remove them from it. */
export const SiteRoiBodySchema = z.object({
  type: z.enum(['copy', 'remove']),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000),
});
/** POST /folder/operator-site-folder: remove an IPP gallery folder, or copy it into the team library. */
export const SiteFolderBodySchema = z.object({
  type: z.enum(['copy', 'remove']),
  roi_index_id: z.number().int().positive().max(MAX_ID),
});
/** POST /folder/delete-temporary-folder: one of the caller's temporary classes, or all of them. */
export const TemporaryDeleteBodySchema = z.object({ roi_index_id: z.number().int().positive().max(MAX_ID).optional() });

/** POST /roi/operate-roi: copy or move ROIs into the folder with that code, or remove them from it. */
export const OperateRoiBodySchema = z.object({
  type: z.enum(['copy', 'move', 'remove']),
  roi_index_code: z.string().min(1).max(64),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000),
  category_id: z.number().int().min(-1000).max(MAX_ID),
  code: z.string().max(64).optional(),
});

/** GET /roi/set-roi-label-index: a human label by label index (hi = 1); 0 returns the ROI to its AI label. */
export const SetLabelQuerySchema = z.object({
  roi_id: z.coerce.number().int().positive().max(MAX_ID),
  roi_labelindex: z.coerce.number().int().min(0).max(999),
});

/** POST /roi/delete: ROIs to the recycle bin, or (with roi_index_id) out of that folder only. */
export const RoiDeleteBodySchema = z.object({ roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000) });
export const RoiDeleteQuerySchema = z.object({ roi_index_id: z.coerce.number().int().positive().max(MAX_ID).optional() });

/**
 * POST /roi/export: a selection (roi_ids) or everything a list query matches (at most EXPORT_MAX), as CSV or as an
 * EcoTaxa-compatible zip (ecotaxa_export.tsv + the images). Streamed; the answer is the file, not an envelope.
 */
export const EXPORT_MAX = 100_000;
export const ExportBodySchema = z.object({
  format: z.enum(['csv', 'ecotaxa']),
  roi_ids: z.array(z.number().int().positive().max(MAX_ID)).min(1).max(10_000).optional(),
  /** The list query (GET /roi/index fields) when exporting a whole folder, class or filter. */
  query: RoiListQuerySchema.omit({ limit: true, page: true, after: true }).optional(),
});
export type ExportBody = z.input<typeof ExportBodySchema>;

/**
 * POST /roi/import?dev_id&as&format (multipart "file"); administrators. folders: a zip of one folder of images per
 * class; ecotaxa: an EcoTaxa export (its *.tsv and the images it names; docs/ecotaxa.md "Import").
 */
export const ImportQuerySchema = z.object({
  dev_id: z.string().trim().min(1).max(32),
  as: z.enum(['hi', 'reference']).default('hi'),
  format: z.enum(['folders', 'ecotaxa']).default('folders'),
  /**
   * Micrometres per pixel of the imported images, where they come from another instrument than the station's: stored
   * on each imported ROI as its own pixel size (absent: the station's; EcoTaxa tables: their acq_pixel_size_um).
   */
  pixel_size_um: z.coerce.number().min(0.01).max(1000).optional(),
  /** A name the caller chose for this import, to follow its progress by (GET /roi/import-progress). */
  progress_id: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,64}$/)
    .optional(),
});
/**
 * An EcoTaxa import reads at most this many object rows (all its tables together); a larger table is refused before
 * any image is read (issue 37: a 2 MB zip of 400,000 rows ran for a minute). Split larger exports.
 */
export const IMPORT_ROWS_MAX = 100_000;
/** An import's report lists at most this many failures and conflicts; `failed_total` and `conflicts_total` count all. */
export const IMPORT_LISTED_MAX = 100;
export const ImportReportSchema = z.object({
  station: z.string(),
  /** Per class folder (or EcoTaxa category): images stored by this import, and images already there (not stored). */
  classes: z.array(
    z.object({
      folder: z.string(),
      class: z.string(),
      created: z.boolean(),
      images: z.number().int(),
      duplicates: z.number().int(),
    }),
  ),
  imported: z.number().int(),
  /**
   * Where the stored images' capture times came from (folder imports): the set's labels.csv (a `path` column and a
   * time column: captured_at, time, timestamp…), else a time in the file name (SPC-<camera>-<unix seconds>-…), else
   * the file's own modification time (in a zip: the entry's time).
   */
  capture_times: z.object({ labels_csv: z.number().int(), file_name: z.number().int(), file_time: z.number().int() }).optional(),
  duplicates: z.number().int(),
  /** Duplicates filed under another class than the stored ROI's: the ROI keeps `kept`, the file's folder said `class`. */
  conflicts: z.array(z.object({ file: z.string(), class: z.string(), kept: z.string(), roi_id: z.number().int() })),
  /** Every conflict, listed or not (the list holds the first IMPORT_LISTED_MAX). */
  conflicts_total: z.number().int(),
  failed: z.array(z.object({ file: z.string(), reason: z.string() })),
  /** Every failure, listed or not (the list holds the first IMPORT_LISTED_MAX). */
  failed_total: z.number().int(),
  /** EcoTaxa imports: the objects by annotation status, and annotators no user of the station's team matched. */
  ecotaxa: z
    .object({
      rows: z.number().int(),
      validated: z.number().int(),
      predicted: z.number().int(),
      dubious: z.number().int(),
      unclassified: z.number().int(),
      people_unmatched: z.array(z.string()),
    })
    .optional(),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;

/** GET /roi/import-progress?progress_id: how far the caller's named import is (its own imports only). */
export const ImportProgressQuerySchema = z.object({ progress_id: ImportQuerySchema.shape.progress_id.unwrap() });
export const ImportProgressSchema = z.object({
  /** upload: bytes received of the request's length; unpack; import: objects done of the total; done; failed. */
  phase: z.enum(['upload', 'unpack', 'import', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  /** The report once done (also when the import's own request was cut). */
  report: ImportReportSchema.nullable(),
  /** Why it failed, in the caller's language, once failed. */
  error: z.string().nullable(),
});
export type ImportProgress = z.infer<typeof ImportProgressSchema>;
