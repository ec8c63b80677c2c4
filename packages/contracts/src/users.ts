import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import { PagingQuerySchema } from './paging.ts';
import { USER_LIMITS } from './constants.ts';
import { PASSWORD_MAX, PASSWORD_MIN, RoleSchema } from './session.ts';

export { USER_LIMITS } from './constants.ts';

export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.@-]+$/;

/** A user as the user list shows it (spec §3 User); never the password hash. */
export const UserSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  group_id: z.number().int().nullable(),
  group_name: z.string().nullable(),
  role: RoleSchema,
  demo: z.boolean(),
  created_at: z.number().int(),
});
export type User = z.infer<typeof UserSchema>;

export const UserIndexQuerySchema = PagingQuerySchema.extend({
  account: z.string().trim().max(USER_LIMITS.account).optional(),
  email: z.string().trim().max(USER_LIMITS.email).optional(),
  phone: z.string().trim().max(USER_LIMITS.phone).optional(),
  group_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
});
export type UserIndexQuery = z.infer<typeof UserIndexQuerySchema>;

/** Create (no id: password required) or edit (with id: empty password keeps the current one). */
export const UserSaveBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID).optional(),
  account: z.string().trim().min(1).max(USER_LIMITS.account).regex(ACCOUNT_PATTERN),
  name: z.string().trim().min(1).max(USER_LIMITS.name),
  password: z.union([z.literal(''), z.string().min(PASSWORD_MIN).max(PASSWORD_MAX)]).optional(),
  phone: z
    .string()
    .trim()
    .min(1)
    .max(USER_LIMITS.phone)
    .regex(/^\+?[0-9][0-9 -]{2,30}$/),
  email: z.email().max(USER_LIMITS.email),
  group_id: z.number().int().positive().max(MAX_ID).nullable(),
  role: RoleSchema,
});
export type UserSaveBody = z.infer<typeof UserSaveBodySchema>;

export const ChangePasswordBodySchema = z.object({
  password: z.string().min(1).max(PASSWORD_MAX),
  newpassword: z.string().min(PASSWORD_MIN).max(PASSWORD_MAX),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const UserViewQuerySchema = z.object({ id: z.coerce.number().int().positive().max(MAX_ID) });
