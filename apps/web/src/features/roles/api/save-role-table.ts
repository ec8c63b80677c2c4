import { RoleTableSchema, type RoleSaveBody, type RoleTable } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { roleTableQueryKey } from '@/api/get-role-table';
import * as EP from '@ipp/contracts/endpoints';

export async function saveRoleTable(body: RoleSaveBody): Promise<RoleTable> {
  return parseData(RoleTableSchema, await api.post(EP.settingSaveRole, body));
}

export function useSaveRoleTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRoleTable,
    // The answer is the whole table: this tab's guard and menu follow it at once.
    onSuccess: (table) => queryClient.setQueryData(roleTableQueryKey, table),
  });
}
