import { CATEGORY, type Action } from '@ipp/contracts';

/**
 * The buttons of the bulk action bar: the server's actions for the category, minus those only the detail pane
 * offers (one ROI at a time) and those refused while an AI-labelled ROI is selected (spec §6, -100).
 */
export function barActions(actions: readonly Action[], selectionHasAi: boolean): Action[] {
  return actions.filter((action) => !action.single && !(action.no_ai && selectionHasAi));
}

/** The actions of the detail pane, for the one ROI shown. */
export function singleActions(actions: readonly Action[], roiIsAi: boolean): Action[] {
  return actions.filter((action) => action.single && !(action.no_ai && roiIsAi));
}

/** i18n key of an action code's label (docs/actions.md). */
export const actionLabelKey = (code: string) => `identify.action.${code}`;

/** The server caps a selection at this many ROIs a call (docs/actions.md). */
export const MAX_SELECTION = 10_000;
/** Above this many ROIs the call shows a progress dialog instead of a busy button. */
export const PROGRESS_ABOVE = 500;

/** Where a copy or move to a folder may go (target 'folder' of docs/actions.md). */
export const FOLDER_TARGETS: readonly number[] = [CATEGORY.FOLDERS, CATEGORY.TEMPORARY, CATEGORY.TEAM, CATEGORY.SITE_GALLERY];

/** Where a whole class may be copied or moved (POST /folder/operate-folder with a category). */
export const CLASS_TARGETS: readonly number[] = [
  CATEGORY.TEAM,
  CATEGORY.SITE_GALLERY,
  CATEGORY.FOLDERS,
  CATEGORY.TEMPORARY,
  CATEGORY.XCUBE,
];

/** Whether an action asks before it runs: the server's catalogue says (docs/actions.md; 61 asks, spec §8). */
export function needsConfirm(action: Action): boolean {
  return action.confirm;
}

/**
 * Spec §6: in the team gallery (-2) demo images get no actions (the server refuses each with "演示图像不支持此操作"),
 * so none is offered while one is selected or shown.
 */
export function demoLocked(categoryId: number, hasDemoImage: boolean): boolean {
  return categoryId === CATEGORY.TEAM && hasDemoImage;
}

/**
 * Where "Import images" is offered: the import files images in as human-identified images of a station (site
 * images, all images by device) or into the team reference library; nowhere else would they show up.
 */
export const IMPORT_CATEGORIES: readonly number[] = [CATEGORY.SITE, CATEGORY.ALL, CATEGORY.TEAM];

/**
 * Where "Show empty classes" changes the tree: views built from the class list (site images, all images by device,
 * favourites, review, recycle bin). Folder categories always show their folders, so the switch would do nothing.
 */
export const SHOW_EMPTY_CATEGORIES: readonly number[] = [
  CATEGORY.SITE,
  CATEGORY.ALL,
  CATEGORY.FAVORITE,
  CATEGORY.REVIEW,
  CATEGORY.RECYCLE,
];

/**
 * Categories whose folders belong to a team: a superadmin looking at all teams must pick one to make a class there
 * (an IPP gallery folder takes its team from the station chosen instead).
 */
const TEAM_FOLDERS: readonly number[] = [CATEGORY.FOLDERS, CATEGORY.TEAM];

export type CreateState = 'allowed' | 'pick-team' | 'pick-station' | 'none';

/**
 * The "New class" button: offered, disabled with the reason (a superadmin in "all teams" mode must pick a team; an
 * IPP gallery folder belongs to one station), or not offered at all.
 */
export function createState(
  category: { id: number; can_create: boolean },
  ctx: { demo: boolean; superadminAllTeams: boolean; hasStation: boolean },
): CreateState {
  if (ctx.demo) return 'none';
  if (ctx.superadminAllTeams && TEAM_FOLDERS.includes(category.id)) return 'pick-team';
  if (!category.can_create) return 'none';
  if (category.id === CATEGORY.SITE_GALLERY && !ctx.hasStation) return 'pick-station';
  return 'allowed';
}
