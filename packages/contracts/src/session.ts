import { z } from 'zod';

import { LANGS, PASSWORD_MAX, PASSWORD_MIN } from './constants.ts';

export { DEFAULT_LANG, HEADER_LANG, HEADER_TOKEN, LANGS, PASSWORD_MAX, PASSWORD_MIN, type Lang } from './constants.ts';

export const ROLES = ['superadmin', 'administrator', 'user'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Component size of the console (spec §3 "User session": size). */
export const COMPONENT_SIZES = ['small', 'middle', 'large'] as const;
export const ComponentSizeSchema = z.enum(COMPONENT_SIZES);
export type ComponentSize = z.infer<typeof ComponentSizeSchema>;

export const LoginBodySchema = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginResultSchema = z.object({
  token: z.string(),
  role: RoleSchema,
  name: z.string(),
  /** true for the read-only demo account (docs/decisions.md). */
  demo: z.boolean(),
});
export type LoginResult = z.infer<typeof LoginResultSchema>;

export const GroupRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const UserInfoSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  /** spec §7: user-info returns roles and name. */
  roles: z.array(RoleSchema),
  role: RoleSchema,
  /** Empty string means "use the default static avatar". */
  avatar: z.string(),
  group_id: z.number().int().nullable(),
  group: GroupRefSchema.nullable(),
  demo: z.boolean(),
  /** The user's own settings (POST /setting/save-user); null = not chosen, the site default applies. */
  language: z.enum(LANGS).nullable(),
  size: ComponentSizeSchema.nullable(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;
