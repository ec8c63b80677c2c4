import { MAX_ID } from './ids.ts';
import { z } from 'zod';
import { PagingQuerySchema } from './paging.ts';

export const TEAM_NAME_MAX = 64;

/** A team (group) as the team list shows it (spec §3 Team). */
export const TeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  admin_account: z.string().nullable(),
  admin_name: z.string().nullable(),
  superadmin_count: z.number().int(),
  admin_count: z.number().int(),
  user_count: z.number().int(),
  created_at: z.number().int(),
});
export type Team = z.infer<typeof TeamSchema>;

export const TeamIndexQuerySchema = PagingQuerySchema.extend({
  name: z.string().trim().max(TEAM_NAME_MAX).optional(),
});
export type TeamIndexQuery = z.infer<typeof TeamIndexQuerySchema>;

/** Create (no id) or rename (with id). */
export const TeamSaveBodySchema = z.object({
  id: z.number().int().positive().max(MAX_ID).optional(),
  name: z.string().trim().min(1).max(TEAM_NAME_MAX),
});
export type TeamSaveBody = z.infer<typeof TeamSaveBodySchema>;
