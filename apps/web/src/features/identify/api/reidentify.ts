import { ReidentifyResultSchema, type ReidentifyBody } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

/** POST /roi/re-identify: a re-identification request for a station over a time range (administrators). */
export async function reidentify(body: ReidentifyBody) {
  return parseData(ReidentifyResultSchema, await api.post(EP.roiReIdentify, body));
}

export function useReidentify() {
  return useMutation({ mutationFn: reidentify });
}
