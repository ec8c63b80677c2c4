/** server: the body carried a failure envelope; transport/timeout: no envelope; aborted: the caller cancelled. */
export type ApiErrorKind = 'server' | 'transport' | 'timeout' | 'aborted';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Envelope result code (1001…1500); null when no envelope arrived. */
  readonly code: number | null;
  /** Field named by a 1002 bad-parameter failure. */
  readonly field: string | null;
  readonly status: number | null;
  readonly requestId: string | null;

  constructor(init: {
    kind: ApiErrorKind;
    message: string;
    code?: number | null;
    field?: string | null;
    status?: number | null;
    requestId?: string | null;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code ?? null;
    this.field = init.field ?? null;
    this.status = init.status ?? null;
    this.requestId = init.requestId ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
