import { TrainResultSchema } from '@ipp/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { aiKeys } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** POST /ai/models/train: queues the training of a new version from the team's HI classes and reference library. */
export async function trainModel(groupId?: number) {
  return parseData(TrainResultSchema, await api.post(EP.aiModelsTrain, { group_id: groupId }));
}

export function useTrainModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: trainModel,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: aiKeys.allModels }),
        queryClient.invalidateQueries({ queryKey: aiKeys.allJobs }),
      ]),
  });
}
