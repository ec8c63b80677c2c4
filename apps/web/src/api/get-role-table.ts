import type { RoleTable } from '@ipp/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { loadShellSchemas, parseShellData } from './parse-shell-data';
import * as EP from '@ipp/contracts/endpoints';

// The guard, the menu and the role page read the same table, so it lives with the shared calls.
export const roleTableQueryKey = ['settings', 'roles'] as const;

/** Silent: the guard falls back to the built-in lists when the table cannot be read. */
export async function getRoleTable(options: { signal?: AbortSignal; silent?: boolean } = {}): Promise<RoleTable> {
  const silent = options.silent ?? false;
  void loadShellSchemas();
  const data = await api.get(EP.settingGetRole, { signal: options.signal, silent });
  return parseShellData((s) => s.RoleTableSchema, data, { silent });
}

export function roleTableQueryOptions(options: { silent?: boolean } = {}) {
  return queryOptions({
    queryKey: roleTableQueryKey,
    queryFn: ({ signal }) => getRoleTable({ signal, silent: options.silent }),
    // Spec: the guard and the menu follow an edited table at the next page load.
    staleTime: Number.POSITIVE_INFINITY,
    // A failed table stays failed (the guard uses the defaults) instead of being fetched again by every
    // component that mounts: the guard would otherwise wait, unmount the layout, and loop.
    retryOnMount: false,
  });
}

export function useRoleTable(options: { enabled?: boolean; silent?: boolean } = {}) {
  return useQuery({ ...roleTableQueryOptions(options), enabled: options.enabled ?? true });
}
