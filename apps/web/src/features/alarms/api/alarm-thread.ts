import { AlarmCommentSchema, type AlarmClearBody, type AlarmCommentBody } from '@ipp/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { alarmsQueryKey } from '@/api/query-keys';
import * as EP from '@ipp/contracts/endpoints';

const CommentsSchema = AlarmCommentSchema.array();
const commentsKey = (id: number) => [...alarmsQueryKey, 'comments', id] as const;

/** An alarm's comment thread, oldest first. */
export function useAlarmComments(id: number) {
  return useQuery({
    queryKey: commentsKey(id),
    queryFn: async ({ signal }) => parseData(CommentsSchema, await api.get(EP.alarmComments, { signal, query: { id } })),
  });
}

export function useAddAlarmComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AlarmCommentBody) => parseData(AlarmCommentSchema, await api.post(EP.alarmComment, body)),
    onSuccess: (_, body) => queryClient.invalidateQueries({ queryKey: commentsKey(body.id) }),
  });
}

/** An administrator clears an open alarm by hand, with a reason. */
export function useClearAlarm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmClearBody) => api.post(EP.alarmClear, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmsQueryKey }),
  });
}
