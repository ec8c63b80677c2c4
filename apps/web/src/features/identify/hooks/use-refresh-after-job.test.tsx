import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { viewsQueryKey } from '@/api/query-keys';
import { aiKeys, identifyKeys } from '../api/keys';
import { useRefreshAfterJob } from './use-refresh-after-job';

function seeded() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const keys = {
    models: aiKeys.models(1),
    thresholds: aiKeys.thresholds(1),
    rois: identifyKeys.rois({ page: 1 }),
    corrected: [...viewsQueryKey, 'corrected-counts', 'dev-1', 0, 1],
  };
  for (const key of Object.values(keys)) client.setQueryData(key, { seeded: true });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const stale = () =>
    Object.fromEntries(Object.entries(keys).map(([name, key]) => [name, client.getQueryState(key)?.isInvalidated ?? false]));
  return { wrapper, stale };
}

describe('useRefreshAfterJob', () => {
  it('after a re-identification, refreshes the lists, the corrected counts and the models label tallies', async () => {
    const { wrapper, stale } = seeded();
    const { result } = renderHook(() => useRefreshAfterJob(), { wrapper });
    await result.current({ kind: 'reidentify' });
    expect(stale()).toEqual({ models: true, thresholds: false, rois: true, corrected: true });
  });

  it('after a training, refreshes the models only', async () => {
    const { wrapper, stale } = seeded();
    const { result } = renderHook(() => useRefreshAfterJob(), { wrapper });
    await result.current({ kind: 'train' });
    expect(stale()).toEqual({ models: true, thresholds: false, rois: false, corrected: false });
  });
});
