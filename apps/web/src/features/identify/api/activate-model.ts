import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /ai/models/activate: the version that labels new ROIs from now on (labels already given stay). */
export async function activateModel(modelId: number): Promise<void> {
  await api.post(EP.aiModelsActivate, { model_id: modelId });
}

export function useActivateModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activateModel,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: aiKeys.allModels }),
  });
}
