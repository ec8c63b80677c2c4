import { ReidentifyResultSchema, type ReidentifyBody } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';

/** POST /roi/re-identify: a re-identification request for a station over a time range (administrators). */
export async function reidentify(body: ReidentifyBody) {
  return parseData(ReidentifyResultSchema, await api.post<unknown>('/roi/re-identify', body));
}

export function useReidentify() {
  return useMutation({ mutationFn: reidentify });
}
