import { CategorySchema, type Category } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { cleanQuery, identifyKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

const CategoryListSchema = CategorySchema.array();

/** GET /roi/categorys: the galleries and views the caller may open, in menu order. */
export async function getCategories(groupId?: number, options: { signal?: AbortSignal } = {}): Promise<Category[]> {
  const data = await api.get(EP.roiCategorys, { query: cleanQuery({ group_id: groupId }), signal: options.signal });
  return parseData(CategoryListSchema, data);
}

export function categoriesQueryOptions(groupId?: number) {
  return queryOptions({
    queryKey: identifyKeys.categories(groupId),
    queryFn: ({ signal }) => getCategories(groupId, { signal }),
  });
}

export function useCategories(groupId?: number) {
  return useQuery(categoriesQueryOptions(groupId));
}
