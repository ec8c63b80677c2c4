import { MatchingIdsSchema, type MatchingIds, type RoiListQuery } from '@ipp/contracts';
import { api, parseData } from '@/api/client';
import { cleanQuery } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /roi/matching-ids: every ROI the list query matches, in its order (at most 10,000). */
export async function getMatchingIds(query: RoiListQuery): Promise<MatchingIds> {
  const { limit: _limit, page: _page, after: _after, ...rest } = query;
  return parseData(MatchingIdsSchema, await api.get(EP.roiMatchingIds, { query: cleanQuery(rest) }));
}
