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
