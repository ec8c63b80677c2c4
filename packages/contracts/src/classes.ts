import { z } from 'zod';

/**
 * Classes (spec §3 Class). Names start with three digits (spec §9). The system classes below are seeded by the
 * server with the on-device label index an instrument sends for them; system classes cannot be deleted.
 */
export const SYSTEM_CLASSES = [
  { label_index: 1, name: '001Copepod' },
  { label_index: 2, name: '002Diatom_chain' },
  { label_index: 3, name: '003Dinoflagellate' },
  { label_index: 4, name: '004Appendicularian' },
  { label_index: 5, name: '005Chaetognath' },
  { label_index: 6, name: '006Medusa' },
  { label_index: 7, name: '007Detritus' },
  { label_index: 8, name: '008Bubble' },
] as const;

/** Three digits, then Chinese characters, letters, digits, '-' or '_' (spec §5); the digits are the label index. */
export const CLASS_NAME_PATTERN = /^\d{3}[\u4e00-\u9fa5A-Za-z0-9_-]+$/;

export const ClassSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label_index: z.number().int().nullable(),
  system: z.boolean(),
  visible: z.boolean(),
});
export type PlanktonClass = z.infer<typeof ClassSchema>;
