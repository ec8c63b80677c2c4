/**
 * The contract's plain constants, without zod: `@ipp/contracts/constants` is what the web console's shell imports
 * (the sign-in page must not carry the schemas and zod in its bundle), and the modules that define schemas with
 * them re-export them from here, so `@ipp/contracts` still offers everything. Nothing here may import a value from
 * a module that imports zod (type-only imports vanish at build time).
 */
import type { Settings } from './settings.ts';

/** Result codes carried in every envelope. 1000 is success; the rest are documented in docs/decisions.md. */
export const ResultCode = {
  OK: 1000,
  FAILED: 1001,
  BAD_PARAM: 1002,
  THROTTLED: 1003,
  NOT_FOUND: 1004,
  TOKEN: 1010,
  FORBIDDEN: 1011,
  INTERNAL: 1500,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** Literal 1010 messages the web client recognises (spec §8). */
export const TOKEN_MESSAGES = {
  invalid: 'Error Token,Please login again.',
  displaced: 'Auth Token Failed.',
} as const;

export const LANGS = ['zh', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'zh';

export const HEADER_TOKEN = 'x-token';
export const HEADER_LANG = 'x-lang';

/** Passwords: at least 6 characters (spec §5), at most 128 so hashing cost stays bounded. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** A user's fields: the server's schemas, the admin forms and the search box all take their bounds from here. */
export const USER_LIMITS = { account: 64, name: 64, phone: 32, email: 128 } as const;

export const DEFAULT_SETTINGS: Settings = {
  team_max_admins: 1,
  team_max_users: 3,
  idle_minutes: 30,
  default_language: 'zh',
  site_title: '',
  logo: '',
  offline_minutes: 10,
  recycle_retention_days: 30,
  wall_max: 100,
  map_tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
};

/**
 * The bulk action codes (docs/actions.md has each one's meaning, target and role matrix). The codes are the spec's
 * and travel as they are; code reads them by name.
 */
export const ACTION = {
  DELETE: '2',
  REDO_HI: '13',
  COPY_TO_HI: '21',
  MOVE_TO_HI: '23',
  COPY_TO_SITE_GALLERY: '31',
  REMOVE_FROM_SITE_GALLERY: '33',
  COPY_TO_TEAM: '41',
  MOVE_TO_TEAM: '42',
  REMOVE_FROM_TEAM: '43',
  COPY_TO_FOLDER: '51',
  MOVE_TO_FOLDER: '52',
  REMOVE_FROM_FOLDER: '53',
  COPY_TO_TEMPORARY: '54',
  FAVORITE: '61',
  UNFAVORITE: '62',
  SUBMIT_REVIEW: '71',
  APPROVE: '110',
  REJECT: '111',
  BACK_TO_PENDING: '112',
  RESTORE: '113',
  VALIDATE: '81',
  SET_CLASS: '82',
  DUBIOUS: '83',
  COPY_TO_XCUBE: 'B001',
  REMOVE_FROM_XCUBE: 'B002',
  COPY_CLASS_TO_TEAM: 'B003',
  REMOVE_CLASS_FROM_TEAM: 'B004',
} as const;

/**
 * An ROI's label kind (spec §3), the one encoding: unlabelled (ui), labelled by a model or the instrument (ai), or by
 * a person (hi). API answers carry the name; the class-count rollups and tree codes store the number.
 */
export const LABEL_KINDS = { ui: 0, ai: 1, hi: 2 } as const;
export type LabelKind = keyof typeof LABEL_KINDS;

/** The kind of an ROI from its columns: hi = 1 is a human label; label index 0 is none; anything else a model's. */
export const labelKindOf = (hi: number, labelIndex: number): LabelKind => (hi === 1 ? 'hi' : labelIndex === 0 ? 'ui' : 'ai');

/** The same kind as the rollups and the tree store it: its LABEL_KINDS code (0 ui, 1 ai, 2 hi). */
export const labelKindCodeOf = (hi: number, labelIndex: number): number => LABEL_KINDS[labelKindOf(hi, labelIndex)];

/** A stored image's name: its SHA-256 and its kind (GET /roi/file/:name). */
export const BLOB_NAME = /^([0-9a-f]{64})\.(png|jpg|webp|thumb\.webp|enh\.png)$/;
