import { z } from 'zod';
import { CONSOLE_PATHS, type ConsolePath } from './routes.ts';
import { GroupViewSaveBodySchema, GroupViewSchema } from './ipps.ts';
import { ComponentSizeSchema, LANGS, RoleSchema } from './session.ts';

/** System settings (spec §2 /system/config) with their defaults. */
export const SettingsSchema = z.object({
  /** Per team (spec §6: "Every team has 1 administrator and 3 users"). */
  team_max_admins: z.number().int().min(0).max(100),
  team_max_users: z.number().int().min(0).max(10_000),
  idle_minutes: z.number().int().min(1).max(1440),
  default_language: z.enum(LANGS),
  site_title: z.string().trim().max(64),
  /** Image URL of the uploaded logo ('' = none; the overview then prompts to upload one). */
  logo: z.string().max(256),
  offline_minutes: z.number().int().min(1).max(1440),
  recycle_retention_days: z.number().int().min(1).max(3650),
  /** Most ROIs the favourites wall shows before it warns. */
  wall_max: z.number().int().min(1).max(1000),
  /**
   * Map tiles for the station map, a URL template with {z}, {x} and {y} ('' = none). The map always draws a
   * packaged vector world outline underneath, so it stays readable without network.
   */
  map_tile_url: z.union([
    z.literal(''),
    z
      .string()
      .trim()
      .max(256)
      .regex(/^https?:\/\/\S+$/)
      .refine((url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)), 'needs {z}, {x} and {y}'),
  ]),
});
export type Settings = z.infer<typeof SettingsSchema>;

export { DEFAULT_SETTINGS } from './constants.ts';

/** POST /setting/save: any subset; the logo is set by its own upload. */
export const SettingsSaveBodySchema = SettingsSchema.omit({ logo: true }).partial().strict();
export type SettingsSaveBody = z.infer<typeof SettingsSaveBodySchema>;

/** GET /setting/get-set-init: what the console needs before and right after sign-in (public). */
export const SettingsInitSchema = SettingsSchema.pick({
  site_title: true,
  logo: true,
  default_language: true,
  idle_minutes: true,
  map_tile_url: true,
  wall_max: true,
});
export type SettingsInit = z.infer<typeof SettingsInitSchema>;

export const SystemInfoSchema = z.object({
  version: z.string(),
  node: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  started_at: z.number().int(),
  teams: z.number().int(),
  users: z.number().int(),
});
export type SystemInfo = z.infer<typeof SystemInfoSchema>;

const PathSchema = z.enum(CONSOLE_PATHS as [ConsolePath, ...ConsolePath[]]);

export const RouteRolesSchema = z.object({ path: PathSchema, roles: z.array(RoleSchema).nullable() });
export type RouteRoles = z.infer<typeof RouteRolesSchema>;

/** GET /setting/get-role. */
export const RoleTableSchema = z.object({
  roles: z.array(z.object({ role: RoleSchema, name_zh: z.string(), name_en: z.string() })),
  routes: z.array(RouteRolesSchema),
});
export type RoleTable = z.infer<typeof RoleTableSchema>;

/** POST /setting/save-role: the lists of the routes to change. */
export const RoleSaveBodySchema = z.object({ routes: z.array(RouteRolesSchema).min(1).max(CONSOLE_PATHS.length) });
export type RoleSaveBody = z.infer<typeof RoleSaveBodySchema>;

/**
 * POST /setting/save-user: the signed-in user's own settings (spec §3 "User session" and "User config"). Any subset:
 * language, component size, and the stations followed (the same rules as /setting/set-group-view: one's own team's
 * stations; a superadmin names the team).
 */
export const UserSettingsSaveBodySchema = z
  .object({
    language: z.enum(LANGS).optional(),
    size: ComponentSizeSchema.optional(),
    view: GroupViewSaveBodySchema.optional(),
  })
  .strict()
  .refine((body) => body.language !== undefined || body.size !== undefined || body.view !== undefined, {
    message: 'reason.noUserSetting',
  });
export type UserSettingsSaveBody = z.infer<typeof UserSettingsSaveBodySchema>;

export const UserSettingsSchema = z.object({
  language: z.enum(LANGS).nullable(),
  size: ComponentSizeSchema.nullable(),
  view: GroupViewSchema,
});
export type UserSettings = z.infer<typeof UserSettingsSchema>;
