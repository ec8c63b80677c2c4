import { ResultCode } from '@ipp/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';

/** Reads the single uploaded file of a multipart request into memory, refusing it past `maxBytes` (413). */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ data: Buffer; filename: string }> {
  if (!request.isMultipart()) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
  if (!file) throw new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
  const data = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') return null;
    throw error;
  });
  if (data === null || file.file.truncated) {
    throw new AppError(ResultCode.BAD_PARAM, 'fileTooLarge', { max: `${Math.round(maxBytes / 1024)} KB` }, 'file', 413);
  }
  return { data, filename: file.filename };
}
