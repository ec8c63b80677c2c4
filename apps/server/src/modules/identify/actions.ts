import { ACTION, CATEGORY, type Action, type ActionCode, type ActionTarget, type Role } from '@ipp/contracts';

interface CodeInfo {
  target: ActionTarget;
  confirm: boolean;
  danger: boolean;
}

/** What each code needs and whether the console asks first (docs/actions.md). */
export const CATALOGUE: Record<ActionCode, CodeInfo> = {
  [ACTION.DELETE]: { target: 'none', confirm: true, danger: true },
  [ACTION.REDO_HI]: { target: 'none', confirm: true, danger: false },
  [ACTION.COPY_TO_HI]: { target: 'class', confirm: true, danger: false },
  [ACTION.MOVE_TO_HI]: { target: 'class', confirm: true, danger: false },
  [ACTION.COPY_TO_SITE_GALLERY]: { target: 'none', confirm: true, danger: false },
  [ACTION.REMOVE_FROM_SITE_GALLERY]: { target: 'none', confirm: true, danger: true },
  [ACTION.COPY_TO_TEAM]: { target: 'none', confirm: true, danger: false },
  [ACTION.MOVE_TO_TEAM]: { target: 'none', confirm: true, danger: false },
  [ACTION.REMOVE_FROM_TEAM]: { target: 'none', confirm: true, danger: true },
  [ACTION.COPY_TO_FOLDER]: { target: 'folder', confirm: true, danger: false },
  [ACTION.MOVE_TO_FOLDER]: { target: 'folder', confirm: true, danger: false },
  [ACTION.REMOVE_FROM_FOLDER]: { target: 'none', confirm: true, danger: true },
  [ACTION.COPY_TO_TEMPORARY]: { target: 'title', confirm: true, danger: false },
  [ACTION.FAVORITE]: { target: 'none', confirm: true, danger: false },
  [ACTION.UNFAVORITE]: { target: 'none', confirm: true, danger: false },
  [ACTION.SUBMIT_REVIEW]: { target: 'none', confirm: false, danger: false },
  [ACTION.APPROVE]: { target: 'none', confirm: false, danger: false },
  [ACTION.REJECT]: { target: 'none', confirm: false, danger: false },
  [ACTION.BACK_TO_PENDING]: { target: 'none', confirm: false, danger: false },
  [ACTION.RESTORE]: { target: 'none', confirm: true, danger: false },
  // In-place labelling (issue 25): quick and undoable, so asked nothing.
  [ACTION.VALIDATE]: { target: 'none', confirm: false, danger: false },
  [ACTION.SET_CLASS]: { target: 'class', confirm: false, danger: false },
  [ACTION.DUBIOUS]: { target: 'none', confirm: false, danger: false },
  B001: { target: 'none', confirm: true, danger: false },
  B002: { target: 'none', confirm: true, danger: true },
  B003: { target: 'none', confirm: true, danger: false },
  B004: { target: 'none', confirm: true, danger: true },
};

/** Offered only while no AI-labelled ROI is selected (spec §6, -100). */
const NO_AI: readonly ActionCode[] = [ACTION.MOVE_TO_HI, ACTION.REDO_HI];
/** Only one ROI at a time, in the detail pane (spec §6, -1). */
const SINGLE: readonly ActionCode[] = [ACTION.REMOVE_FROM_XCUBE];

type PerRole = Partial<Record<Role, readonly ActionCode[]>>;
const admins = (codes: readonly ActionCode[]): PerRole => ({ superadmin: codes, administrator: codes });
const everyone = (codes: readonly ActionCode[]): PerRole => ({ superadmin: codes, administrator: codes, user: codes });

/**
 * In-place labelling (issue 25, docs/actions.md): validate as predicted, set class, mark dubious. Offered wherever
 * the role may already label the ROIs (23 or 21 in the spec's matrix), and to administrators in the galleries.
 */
const IN_PLACE: readonly ActionCode[] = [ACTION.VALIDATE, ACTION.SET_CLASS, ACTION.DUBIOUS];
const withInPlace = (perRole: PerRole, roles: readonly Role[] = ['superadmin', 'administrator', 'user']): PerRole =>
  Object.fromEntries(
    Object.entries(perRole).map(([role, codes]) => [role, roles.includes(role as Role) ? [...codes, ...IN_PLACE] : codes]),
  );

const FOLDER_ACTIONS: PerRole = withInPlace({
  superadmin: [
    ACTION.COPY_TO_FOLDER,
    ACTION.MOVE_TO_FOLDER,
    ACTION.REMOVE_FROM_FOLDER,
    ACTION.COPY_TO_HI,
    ACTION.COPY_TO_TEAM,
    ACTION.MOVE_TO_TEAM,
    ACTION.DELETE,
  ],
  administrator: [
    ACTION.COPY_TO_FOLDER,
    ACTION.MOVE_TO_FOLDER,
    ACTION.REMOVE_FROM_FOLDER,
    ACTION.COPY_TO_HI,
    ACTION.COPY_TO_TEAM,
    ACTION.MOVE_TO_TEAM,
    ACTION.DELETE,
  ],
  user: [ACTION.COPY_TO_FOLDER, ACTION.MOVE_TO_FOLDER, ACTION.REMOVE_FROM_FOLDER, ACTION.COPY_TO_HI],
});

/** The matrix of docs/actions.md, spec §6. */
const MATRIX: Record<number, PerRole> = {
  [CATEGORY.SITE]: withInPlace({
    superadmin: [
      ACTION.COPY_TO_FOLDER,
      ACTION.COPY_TO_TEMPORARY,
      ACTION.FAVORITE,
      ACTION.SUBMIT_REVIEW,
      ACTION.COPY_TO_SITE_GALLERY,
      ACTION.COPY_TO_TEAM,
      ACTION.COPY_TO_XCUBE,
      ACTION.MOVE_TO_HI,
      ACTION.REDO_HI,
    ],
    administrator: [
      ACTION.COPY_TO_FOLDER,
      ACTION.COPY_TO_TEMPORARY,
      ACTION.FAVORITE,
      ACTION.SUBMIT_REVIEW,
      ACTION.COPY_TO_SITE_GALLERY,
      ACTION.COPY_TO_TEAM,
      ACTION.MOVE_TO_HI,
      ACTION.REDO_HI,
    ],
    user: [
      ACTION.COPY_TO_FOLDER,
      ACTION.COPY_TO_TEMPORARY,
      ACTION.FAVORITE,
      ACTION.SUBMIT_REVIEW,
      ACTION.MOVE_TO_HI,
      ACTION.REDO_HI,
    ],
  }),
  [CATEGORY.XCUBE]: { superadmin: [ACTION.REMOVE_FROM_XCUBE] },
  [CATEGORY.TEAM]: withInPlace(
    { ...admins([ACTION.MOVE_TO_FOLDER, ACTION.REMOVE_FROM_TEAM, ACTION.COPY_TO_FOLDER]), user: [ACTION.COPY_TO_FOLDER] },
    ['superadmin', 'administrator'],
  ),
  [CATEGORY.SITE_GALLERY]: withInPlace(admins([ACTION.COPY_TO_FOLDER, ACTION.REMOVE_FROM_SITE_GALLERY])),
  [CATEGORY.FAVORITE]: withInPlace(everyone([ACTION.COPY_TO_FOLDER, ACTION.UNFAVORITE])),
  [CATEGORY.TEMPORARY]: withInPlace({
    ...admins([ACTION.COPY_TO_FOLDER, ACTION.MOVE_TO_FOLDER, ACTION.REMOVE_FROM_FOLDER, ACTION.COPY_TO_HI, ACTION.MOVE_TO_TEAM]),
    user: [ACTION.COPY_TO_FOLDER, ACTION.MOVE_TO_FOLDER, ACTION.REMOVE_FROM_FOLDER, ACTION.COPY_TO_HI],
  }),
  [CATEGORY.EXAMPLE]: { superadmin: [ACTION.REMOVE_FROM_XCUBE] },
  [CATEGORY.RECYCLE]: admins([ACTION.RESTORE]),
  [CATEGORY.ALL]: withInPlace({ ...admins([ACTION.DELETE, ACTION.MOVE_TO_HI]), user: [ACTION.MOVE_TO_HI] }),
  [CATEGORY.FOLDERS]: FOLDER_ACTIONS,
};

/** Codes a role may use in a category; a positive category is one ordinary folder. */
export function allowedCodes(role: Role, categoryId: number, reviewedType?: number): readonly ActionCode[] {
  if (categoryId === CATEGORY.REVIEW) {
    if (role === 'user') return [];
    // Correcting the class while reviewing (82) approves the corrected label.
    return reviewedType === 1 ? [ACTION.BACK_TO_PENDING] : [ACTION.APPROVE, ACTION.REJECT, ACTION.SET_CLASS];
  }
  const perRole = categoryId > 0 ? FOLDER_ACTIONS : MATRIX[categoryId];
  return perRole?.[role] ?? [];
}

export function describe(code: ActionCode): Action {
  return { code, ...CATALOGUE[code], no_ai: NO_AI.includes(code), single: SINGLE.includes(code) };
}

export const needsNoAi = (code: ActionCode) => NO_AI.includes(code);
export const isSingle = (code: ActionCode) => SINGLE.includes(code);
