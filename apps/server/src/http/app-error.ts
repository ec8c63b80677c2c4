import { ResultCode } from '@ipp/contracts';
import type { MessageKey, MessageParams } from './messages.ts';

/** A failure the caller should see: a result code and a message key translated at the edge. */
export class AppError extends Error {
  constructor(
    readonly code: ResultCode,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly field?: string,
    /** HTTP status when the code's usual one does not fit (413 too large, 415 not an image). */
    readonly status?: number,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const badParam = (field: string, reason: MessageKey, params: MessageParams = {}) =>
  new AppError(ResultCode.BAD_PARAM, 'badParam', { field, reasonKey: reason, ...params }, field);
export const forbidden = () => new AppError(ResultCode.FORBIDDEN, 'forbidden');
export const operationFailed = (key: MessageKey = 'operationFailed', params?: MessageParams) =>
  new AppError(ResultCode.FAILED, key, params);
