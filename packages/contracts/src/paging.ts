import { MAX_ID } from './ids.ts';
import { z } from 'zod';

/** Query paging: page is 1-based; the envelope's `count` carries the total. */
export const PagingQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(20),
});
export type PagingQuery = z.infer<typeof PagingQuerySchema>;

export const IdBodySchema = z.object({ id: z.number().int().positive().max(MAX_ID) });
export type IdBody = z.infer<typeof IdBodySchema>;
