import type { RequestOptions } from '@/api/client';

/** Every identify query sits under this key, so one invalidation after a change refreshes lists, trees and counts. */
export const identifyKey = ['identify'] as const;

export const identifyKeys = {
  categories: (groupId?: number) => [...identifyKey, 'categories', groupId ?? null] as const,
  tree: (query: object) => [...identifyKey, 'tree', query] as const,
  rois: (query: object) => [...identifyKey, 'rois', query] as const,
  adjacent: (query: object) => [...identifyKey, 'adjacent', query] as const,
  actions: (categoryId: number, reviewedType?: number) => [...identifyKey, 'actions', categoryId, reviewedType ?? null] as const,
  toolbar: () => [...identifyKey, 'toolbar'] as const,
  details: (roiId: number) => [...identifyKey, 'details', roiId] as const,
  // Under the identify key: a re-identification changes the AI label, so it refreshes with the lists.
  insight: (roiId: number) => [...identifyKey, 'insight', roiId] as const,
  // Under the identify key: every label change refreshes them with the lists.
  history: (roiId: number) => [...identifyKey, 'history', roiId] as const,
  lastAction: () => [...identifyKey, 'last-action'] as const,
  similar: (roiId: number, limit: number) => [...identifyKey, 'similar', roiId, limit] as const,
  reference: (roiId: number, groupId?: number) => [...identifyKey, 'reference', roiId, groupId ?? null] as const,
};

/** Recognition administration (models, thresholds, jobs) and enhanced renderings, apart from the image lists. */
export const aiKey = ['ai'] as const;

export const aiKeys = {
  allModels: [...aiKey, 'models'] as const,
  allJobs: [...aiKey, 'jobs'] as const,
  models: (groupId?: number) => [...aiKey, 'models', groupId ?? null] as const,
  report: (modelId: number) => [...aiKey, 'models', 'report', modelId] as const,
  thresholds: (groupId?: number) => [...aiKey, 'thresholds', groupId ?? null] as const,
  jobs: (query: object) => [...aiKey, 'jobs', query] as const,
  job: (jobId: number) => [...aiKey, 'job', jobId] as const,
  enhanced: (roiId: number) => [...aiKey, 'enhanced', roiId] as const,
};

export { classesKey } from '@/api/get-classes';

/** A query without its empty values (the server reads '' as a value, not as absent). */
export function cleanQuery(query: object): NonNullable<RequestOptions['query']> {
  const out: NonNullable<RequestOptions['query']> = {};
  for (const [key, value] of Object.entries(query) as [string, unknown][]) {
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}
