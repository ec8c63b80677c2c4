import { IppWithKeySchema, type IdBody, type IppWithKey } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import * as EP from '@ipp/contracts/endpoints';

/** A new device key, answered once; the old one stops working at once. */
export async function rotateIppKey(body: IdBody): Promise<IppWithKey> {
  return parseData(IppWithKeySchema, await api.post(EP.ippRotateKey, body));
}

export function useRotateIppKey() {
  return useMutation({ mutationFn: rotateIppKey });
}
