import { RoiPageSchema, type RoiListQuery, type RoiPage } from '@ipp/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { parseData, requestEnvelope } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** Spec §9: 200 images a page. */
export const ROI_PAGE_SIZE = 200;

export interface RoiPageWithTotal extends RoiPage {
  /** The envelope's count: every ROI matching, not only this page. */
  total: number;
}

/** GET /roi/index: one keyset page (`after` = the previous page's `next`). */
export async function getRois(
  query: RoiListQuery,
  after: string | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<RoiPageWithTotal> {
  const envelope = await requestEnvelope(EP.roiIndex, {
    query: cleanQuery({ ...query, limit: ROI_PAGE_SIZE, after }),
    signal: options.signal,
  });
  return { ...parseData(RoiPageSchema, envelope.data), total: envelope.count };
}

export function useRois(query: RoiListQuery | null) {
  return useInfiniteQuery({
    queryKey: identifyKeys.rois(query ?? {}),
    queryFn: ({ pageParam, signal }) => getRois(query!, pageParam, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: query !== null,
  });
}
