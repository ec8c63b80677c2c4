import { UploadAnswerSchema } from '@ipp/contracts';
import { useMutation } from '@tanstack/react-query';
import { api, parseData } from '@/api/client';
import { cleanQuery } from './keys';
import * as EP from '@ipp/contracts/endpoints';

/** Server limit of POST /uploads (UPLOAD_MAX), checked here too so a refusal does not need the upload. */
export const CLASSIFY_MAX = 10 * 1024 * 1024;

/** POST /uploads (outside the api prefix): measures and classifies an image with the team's active model, keeps nothing. */
export async function classifyUpload({ file, groupId }: { file: File; groupId?: number }) {
  const body = new FormData();
  body.append('file', file);
  const data = await api.post(EP.uploads, body, {
    query: cleanQuery({ group_id: groupId }),
    transfer: true,
  });
  return parseData(UploadAnswerSchema, data);
}

export function useClassifyUpload() {
  return useMutation({ mutationFn: classifyUpload });
}
