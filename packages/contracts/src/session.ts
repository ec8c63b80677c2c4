import { z } from 'zod';

export const LANGS = ['zh', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'zh';

export const ROLES = ['superadmin', 'administrator', 'user'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const HEADER_TOKEN = 'x-token';
export const HEADER_LANG = 'x-lang';

/** Passwords: at least 6 characters (spec §5), at most 128 so hashing cost stays bounded. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

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
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const LogoutResultSchema = z.object({ ok: z.literal(true) });
