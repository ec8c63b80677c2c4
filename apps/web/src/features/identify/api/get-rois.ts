import { RoiPageSchema, type RoiListQuery, type RoiPage } from '@ipp/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { parseData, requestEnvelope } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';
import { FOLDER_PAGE_SIZE, wholeFolderOf } from '../utils/list-query';

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

/**
 * GET /folder/get-folder-by-roi-index (spec §9): one page of a folder's images, FOLDER_PAGE_SIZE a page, in the
 * list's order (sent, so the spec's defaults of oldest first apply only to callers that leave it out).
 */
export async function getFolderRois(
  folderId: number,
  query: Pick<RoiListQuery, 'sorttype' | 'diysort'>,
  page: number,
  options: { signal?: AbortSignal } = {},
): Promise<RoiPageWithTotal> {
  const envelope = await requestEnvelope(EP.folderGetFolderByRoiIndex, {
    query: cleanQuery({
      roi_index_id: folderId,
      limit: FOLDER_PAGE_SIZE,
      page,
      sorttype: query.sorttype,
      diysort: query.diysort,
    }),
    signal: options.signal,
  });
  return { ...parseData(RoiPageSchema, envelope.data), total: envelope.count };
}

/**
 * The list of a query, page after page: a whole folder by the folder listing (page numbers, 1000 a page), anything
 * else by GET /roi/index (keyset cursors, 200 a page). The grid renders only the rows in view either way.
 */
export function useRois(query: RoiListQuery | null) {
  const folder = query === null ? null : wholeFolderOf(query);
  return useInfiniteQuery({
    queryKey: identifyKeys.rois(query ?? {}),
    queryFn: ({ pageParam, signal }) =>
      folder !== null
        ? getFolderRois(folder, query!, typeof pageParam === 'number' ? pageParam : 1, { signal })
        : getRois(query!, typeof pageParam === 'string' ? pageParam : undefined, { signal }),
    initialPageParam: (folder !== null ? 1 : undefined) as string | number | undefined,
    getNextPageParam: (last, _pages, param) => {
      if (!last.next) return undefined;
      return folder !== null ? (typeof param === 'number' ? param : 1) + 1 : last.next;
    },
    enabled: query !== null,
  });
}
