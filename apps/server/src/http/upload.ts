import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ResultCode } from '@ipp/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.ts';
import { isMalformedMultipart } from './error-handler.ts';

const badMultipart = () => new AppError(ResultCode.BAD_PARAM, 'badMultipart', {}, 'body');
const fileMissing = () => new AppError(ResultCode.BAD_PARAM, 'fileMissing', {}, 'file');
const tooLarge = (max: string) => new AppError(ResultCode.BAD_PARAM, 'fileTooLarge', { max }, 'file', 413);

/** A failure while reading a multipart body, as the client's error (1002) where the form itself was broken. */
export function multipartFailure(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const e = error as { code?: string; message?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE') return error;
  return isMalformedMultipart(e, true) ? badMultipart() : error;
}

/**
 * Refuses a request whose body can no longer arrive: its connection closed before the handler began to read it.
 * @fastify/multipart waits for the body's end, which for such a request never comes (issue 20: a cut-off import on
 * PostgreSQL, whose handler asks the database first, never answered and kept its temporary folder). Call it right
 * before request.file()/parts(), with no await in between.
 */
export function assertBodyArriving(request: FastifyRequest) {
  const raw = request.raw as typeof request.raw & { complete?: boolean };
  if (raw.destroyed && raw.complete === false) throw badMultipart();
}

/** The single file part of a multipart request, or 1002 when the form is broken or has none. */
async function filePart(request: FastifyRequest, maxBytes: number) {
  if (!request.isMultipart()) throw fileMissing();
  assertBodyArriving(request);
  const file = await request.file({ limits: { fileSize: maxBytes, files: 1 } }).catch((error: unknown) => {
    throw multipartFailure(error);
  });
  if (!file) throw fileMissing();
  // The form failed (cut off, or the connection closed) before this handler took the part: @fastify/multipart has
  // destroyed its stream, and reading it would wait for ever (Node's pipeline never settles on a destroyed stream).
  if (file.file.destroyed) throw badMultipart();
  return file;
}

/** Reads the single uploaded file of a multipart request into memory, refusing it past `maxBytes` (413). */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<{ data: Buffer; filename: string }> {
  const file = await filePart(request, maxBytes);
  const data = await file.toBuffer().catch((error: { code?: string }) => {
    if (error.code === 'FST_REQ_FILE_TOO_LARGE') return null;
    throw multipartFailure(error);
  });
  if (data === null || file.file.truncated) throw tooLarge(`${Math.round(maxBytes / 1024)} KB`);
  return { data, filename: file.filename };
}

/**
 * Streams the single uploaded file of a multipart request into a new file at `target`, refusing it past `maxBytes`
 * (413, `max` as the message shows it). A form that ends before its file does, or a connection that closes mid-file,
 * answers 1002 at once; the target's file handle is closed either way (the caller removes the file).
 */
export async function saveUpload(
  request: FastifyRequest,
  target: string,
  maxBytes: number,
  max: string,
  /** Told the bytes written so far as they arrive (an import's progress). */
  onBytes?: (bytes: number) => void,
): Promise<{ filename: string; bytes: number }> {
  const file = await filePart(request, maxBytes);
  const raw = request.raw as typeof request.raw & { complete?: boolean };
  // The connection closed before the whole body came: what the part still lacks will never come.
  const onClose = () => {
    if (raw.complete === false && !file.file.readableEnded) file.file.destroy(badMultipart());
  };
  raw.once('close', onClose);
  const out = fs.createWriteStream(target, { flags: 'wx' });
  try {
    if (onBytes) {
      let bytes = 0;
      file.file.on('data', (chunk: Buffer) => onBytes((bytes += chunk.length)));
    }
    await pipeline(file.file, out);
  } catch (error) {
    throw multipartFailure(error);
  } finally {
    raw.off('close', onClose);
  }
  if (file.file.truncated) throw tooLarge(max);
  return { filename: file.filename, bytes: out.bytesWritten };
}
