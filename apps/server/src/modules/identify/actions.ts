import { CATEGORY, type Action, type ActionCode, type ActionTarget, type Role } from '@ipp/contracts';

interface CodeInfo {
  target: ActionTarget;
  confirm: boolean;
  danger: boolean;
}

/** What each code needs and whether the console asks first (docs/actions.md). */
export const CATALOGUE: Record<ActionCode, CodeInfo> = {
  '2': { target: 'none', confirm: true, danger: true },
  '13': { target: 'none', confirm: true, danger: false },
  '21': { target: 'class', confirm: true, danger: false },
  '23': { target: 'class', confirm: true, danger: false },
  '31': { target: 'none', confirm: true, danger: false },
  '33': { target: 'none', confirm: true, danger: true },
  '41': { target: 'none', confirm: true, danger: false },
  '42': { target: 'none', confirm: true, danger: false },
  '43': { target: 'none', confirm: true, danger: true },
  '51': { target: 'folder', confirm: true, danger: false },
  '52': { target: 'folder', confirm: true, danger: false },
  '53': { target: 'none', confirm: true, danger: true },
  '54': { target: 'title', confirm: true, danger: false },
  '61': { target: 'none', confirm: true, danger: false },
  '62': { target: 'none', confirm: true, danger: false },
  '71': { target: 'none', confirm: false, danger: false },
  '110': { target: 'none', confirm: false, danger: false },
  '111': { target: 'none', confirm: false, danger: false },
  '112': { target: 'none', confirm: false, danger: false },
  '113': { target: 'none', confirm: true, danger: false },
  // In-place labelling (issue 25): quick and undoable, so asked nothing.
  '81': { target: 'none', confirm: false, danger: false },
  '82': { target: 'class', confirm: false, danger: false },
  '83': { target: 'none', confirm: false, danger: false },
  B001: { target: 'none', confirm: true, danger: false },
  B002: { target: 'none', confirm: true, danger: true },
  B003: { target: 'none', confirm: true, danger: false },
  B004: { target: 'none', confirm: true, danger: true },
};

/** Offered only while no AI-labelled ROI is selected (spec §6, -100). */
const NO_AI: readonly ActionCode[] = ['23', '13'];
/** Only one ROI at a time, in the detail pane (spec §6, -1). */
const SINGLE: readonly ActionCode[] = ['B002'];

type PerRole = Partial<Record<Role, readonly ActionCode[]>>;
const admins = (codes: readonly ActionCode[]): PerRole => ({ superadmin: codes, administrator: codes });
const everyone = (codes: readonly ActionCode[]): PerRole => ({ superadmin: codes, administrator: codes, user: codes });

/**
 * In-place labelling (issue 25, docs/actions.md): validate as predicted, set class, mark dubious. Offered wherever
 * the role may already label the ROIs (23 or 21 in the spec's matrix), and to administrators in the galleries.
 */
const IN_PLACE: readonly ActionCode[] = ['81', '82', '83'];
const withInPlace = (perRole: PerRole, roles: readonly Role[] = ['superadmin', 'administrator', 'user']): PerRole =>
  Object.fromEntries(
    Object.entries(perRole).map(([role, codes]) => [role, roles.includes(role as Role) ? [...codes, ...IN_PLACE] : codes]),
  );

const FOLDER_ACTIONS: PerRole = withInPlace({
  superadmin: ['51', '52', '53', '21', '41', '42', '2'],
  administrator: ['51', '52', '53', '21', '41', '42', '2'],
  user: ['51', '52', '53', '21'],
});

/** The matrix of docs/actions.md, spec §6. */
const MATRIX: Record<number, PerRole> = {
  [CATEGORY.SITE]: withInPlace({
    superadmin: ['51', '54', '61', '71', '31', '41', 'B001', '23', '13'],
    administrator: ['51', '54', '61', '71', '31', '41', '23', '13'],
    user: ['51', '54', '61', '71', '23', '13'],
  }),
  [CATEGORY.XCUBE]: { superadmin: ['B002'] },
  [CATEGORY.TEAM]: withInPlace({ ...admins(['52', '43', '51']), user: ['51'] }, ['superadmin', 'administrator']),
  [CATEGORY.SITE_GALLERY]: withInPlace(admins(['51', '33'])),
  [CATEGORY.FAVORITE]: withInPlace(everyone(['51', '62'])),
  [CATEGORY.TEMPORARY]: withInPlace({ ...admins(['51', '52', '53', '21', '42']), user: ['51', '52', '53', '21'] }),
  [CATEGORY.EXAMPLE]: { superadmin: ['B002'] },
  [CATEGORY.RECYCLE]: admins(['113']),
  [CATEGORY.ALL]: withInPlace({ ...admins(['2', '23']), user: ['23'] }),
  [CATEGORY.FOLDERS]: FOLDER_ACTIONS,
};

/** Codes a role may use in a category; a positive category is one ordinary folder. */
export function allowedCodes(role: Role, categoryId: number, reviewedType?: number): readonly ActionCode[] {
  if (categoryId === CATEGORY.REVIEW) {
    if (role === 'user') return [];
    // Correcting the class while reviewing (82) approves the corrected label.
    return reviewedType === 1 ? ['112'] : ['110', '111', '82'];
  }
  const perRole = categoryId > 0 ? FOLDER_ACTIONS : MATRIX[categoryId];
  return perRole?.[role] ?? [];
}

export function describe(code: ActionCode): Action {
  return { code, ...CATALOGUE[code], no_ai: NO_AI.includes(code), single: SINGLE.includes(code) };
}

export const needsNoAi = (code: ActionCode) => NO_AI.includes(code);
export const isSingle = (code: ActionCode) => SINGLE.includes(code);
