import { z } from 'zod';
import { MAX_ID } from './ids.ts';

/**
 * A class's taxon as one team maps it (issue 22; docs/ecotaxa.md "Taxonomy"): the Latin name EcoTaxa knows (a taxon,
 * or one of its non-living categories such as "detritus"), its WoRMS AphiaID where known, and a Chinese name.
 * `source`: the team's own mapping, or the console's starter list for a class the team has not mapped.
 */
export const TaxonSchema = z.object({
  name: z.string(),
  aphia_id: z.number().int().nullable(),
  name_zh: z.string().nullable(),
  source: z.enum(['team', 'starter']),
});
export type Taxon = z.infer<typeof TaxonSchema>;

/** Latin names: letters first, then letters, digits, spaces and . ( ) ' < _ - (EcoTaxa qualifies names with "<"). */
export const TAXON_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9 .()'<_-]*$/;
export const TAXON_NAME_MAX = 128;
export const TAXON_ZH_MAX = 64;
/** WoRMS AphiaIDs are positive integers (about 1.6 million of them today). */
export const APHIA_ID_MAX = 99_999_999;

/**
 * POST /taxa/save-class-taxon: a team's mapping of one class (administrators of the team; the superadmin names the
 * team). `reset`: remove the team's mapping, so the starter list (or nothing) applies again. An empty name with no
 * reset says "this class is no taxon" (an EcoTaxa export then writes the class name).
 */
export const SaveClassTaxonBodySchema = z.object({
  class_id: z.number().int().positive().max(MAX_ID),
  group_id: z.number().int().positive().max(MAX_ID).optional(),
  taxon_name: z
    .string()
    .trim()
    .max(TAXON_NAME_MAX)
    .refine((v) => v === '' || TAXON_NAME_PATTERN.test(v), { message: 'reason.latinName' })
    .default(''),
  aphia_id: z.number().int().min(1).max(APHIA_ID_MAX).nullable().default(null),
  name_zh: z.string().trim().max(TAXON_ZH_MAX).nullable().default(null),
  reset: z.boolean().default(false),
});
export type SaveClassTaxonBody = z.input<typeof SaveClassTaxonBodySchema>;
export const SavedClassTaxonSchema = z.object({ class_id: z.number().int(), taxon: TaxonSchema.nullable() });
