import { WallSchema, type Wall } from '@ipp/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { viewsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** GET /views/wall: the latest favourite ROIs, at most the wall maximum, and how many there are in all. */
export async function getWall(options: { signal?: AbortSignal } = {}): Promise<Wall> {
  return parseData(WallSchema, await api.get(EP.viewsWall, { signal: options.signal }));
}

export function useWall() {
  return useQuery({ queryKey: [...viewsQueryKey, 'wall'], queryFn: ({ signal }) => getWall({ signal }) });
}
