import type { QueryKey } from '@tanstack/react-query';
import { viewsQueryKey } from '@/api/query-keys';
import { aiKeys, identifyKey } from './keys';

/**
 * What a change of ROI labels makes stale: every identify tree, list and count, the class lists, the overview pages
 * computed from the same images (corrected counts included), and the models list, which tallies each version's
 * labels (accepted by the machine / sent to review).
 */
export const labelChangeKeys: readonly QueryKey[] = [identifyKey, ['classes'], viewsQueryKey, aiKeys.allModels];
