import { z } from 'zod';

import { ResultCode } from './constants.ts';

export { ResultCode, TOKEN_MESSAGES } from './constants.ts';

/** HTTP status sent with each failure code, so proxies and logs see the class of the failure too. */
export const HTTP_STATUS_OF: Record<ResultCode, number> = {
  1000: 200,
  1001: 422,
  1002: 400,
  1003: 429,
  1004: 404,
  1010: 401,
  1011: 403,
  1500: 500,
};

/** Success envelope: {code: 1000, data, model, count, index}. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.literal(ResultCode.OK),
    data,
    model: z.unknown().nullable(),
    count: z.number().int(),
    index: z.unknown().nullable(),
  });
}

/** Failure envelope: the code, the message in `data` and again in `msg` (spec §7 "Failure body is {msg}"). */
export const FailureEnvelopeSchema = z.object({
  code: z.number().int(),
  data: z.string(),
  msg: z.string(),
  model: z.object({ field: z.string().optional(), requestId: z.string().optional() }).nullable(),
  count: z.literal(0),
  index: z.null(),
});
export type FailureEnvelope = z.infer<typeof FailureEnvelopeSchema>;

export interface Envelope<T> {
  code: number;
  data: T;
  model: unknown;
  count: number;
  index: unknown;
  msg?: string;
}
