import { IppSaveResultSchema, type IppSaveBody } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { ippsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

/** Create (no id) or edit (with id); the form reports failures itself, a 1002 at the field it names. */
export async function saveIpp(body: IppSaveBody) {
  return parseData(IppSaveResultSchema, await api.post(EP.ippSave, body, { silent: true }), { silent: true });
}

export function useSaveIpp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveIpp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ippsQueryKey }),
  });
}
