import { ResultCode } from '@ipp/contracts';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, badParam } from './app-error.ts';
import { sendFailure } from './envelope.ts';
import { isMessageKey, parseLang, type MessageKey, type MessageParams } from './messages.ts';
import { isSpaNavigation } from '../web/static.ts';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** The value at a validation issue's path in what the client sent (undefined when it sent none there). */
function sentAt(input: unknown, instancePath: string): unknown {
  let value = input;
  for (const part of instancePath.split('/').filter(Boolean)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A wrong type in words: a number or a whole number (one word, "number", for both), else the type's name. */
function typeReason(expected: unknown): { reason: MessageKey; params: MessageParams } {
  if (expected === 'int') return { reason: 'reason.integer', params: {} };
  if (expected === 'number') return { reason: 'reason.number', params: {} };
  return { reason: 'reason.type', params: { expected: String(expected) } };
}

/**
 * Turns one zod issue into a 1002 error that names the field and says why, in words we can translate. `input` is
 * what the client sent in the part that failed (query, body, params): a field it did not send is "required", also
 * where a query value is coerced (a number coerced from nothing fails as NaN, not as undefined).
 */
export function validationToAppError(issue: ValidationIssue, input?: unknown): AppError {
  const p = issue.params;
  let field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  let reason: MessageKey = 'reason.invalid';
  let params: MessageParams = {};
  switch (issue.keyword) {
    case 'invalid_type':
      if (
        /received undefined/.test(issue.message ?? '') ||
        (input !== undefined && field !== '' && sentAt(input, issue.instancePath) === undefined)
      )
        reason = 'reason.required';
      else ({ reason, params } = typeReason(p.expected));
      break;
    case 'too_small':
      reason = p.origin === 'string' ? 'reason.tooShort' : 'reason.tooSmall';
      if (p.origin === 'string' && Number(p.minimum) === 1) reason = 'reason.required';
      params.min = String(p.minimum);
      break;
    case 'too_big':
      reason = p.origin === 'string' ? 'reason.tooLong' : 'reason.tooBig';
      params.max = String(p.maximum);
      break;
    case 'invalid_format':
      reason = 'reason.format';
      break;
    case 'invalid_value':
      reason = 'reason.enum';
      params.values = Array.isArray(p.values) ? p.values.join(', ') : '';
      break;
    case 'custom':
      // A refinement that names its own reason (a message key such as 'reason.latinName').
      if (typeof issue.message === 'string' && issue.message.startsWith('reason.') && isMessageKey(issue.message))
        reason = issue.message;
      break;
    case 'unrecognized_keys': {
      const keys = Array.isArray(p.keys) ? p.keys : [];
      field = [field, String(keys[0] ?? '')].filter(Boolean).join('.');
      reason = 'reason.unknownKey';
      break;
    }
  }
  return badParam(field || 'body', reason, params);
}

const FASTIFY_ERRORS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'badJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'badJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'bodyTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'badContentType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'badJson',
};

/**
 * The multipart parser (busboy, under @fastify/multipart) throws plain errors on a malformed form: no boundary, a
 * truncated body, a broken part header. They are the client's fault, not the server's (found by the route fuzzer).
 */
const MALFORMED_MULTIPART = /^(Multipart: |Unexpected end of (form|file)|Malformed (part header|urlencoded form))/;

/**
 * Busboy's words, on a multipart request only, for a form cut off inside a part and for a boundary longer than its
 * search allows (over ~250 characters): both answered 500 on every upload route (issue 20).
 */
const BROKEN_FORM = /^((Part|Preamble) terminated early|Unexpected end of multipart data|The needle cannot have)/;

export function isMalformedMultipart(error: { message?: string; code?: string }, multipart: boolean) {
  if (MALFORMED_MULTIPART.test(error.message ?? '') || error.code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return true;
  // A form cut off inside a file part ends that part's stream early.
  return multipart && (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || BROKEN_FORM.test(error.message ?? ''));
}

/** What the client sent in the part of the request that failed validation ({} when it sent none). */
function sentPart(request: FastifyRequest, error: { validationContext?: string }): unknown {
  switch (error.validationContext) {
    case 'querystring':
      return request.query ?? {};
    case 'body':
      return request.body ?? {};
    case 'params':
      return request.params ?? {};
    default:
      return undefined;
  }
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = parseLang(request.headers['x-lang']);
    if (error instanceof AppError) return sendFailure(reply, error, lang, error.status);
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendFailure(reply, validationToAppError(error.validation[0] as ValidationIssue, sentPart(request, error)), lang);
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) {
      const appError = new AppError(ResultCode.BAD_PARAM, known, {}, 'body');
      // Keep the transport meaning (413/415) that proxies and clients rely on.
      return sendFailure(reply, appError, lang, error.statusCode ?? 400);
    }
    if (isMalformedMultipart(error, /^multipart\/form-data/i.test(request.headers['content-type'] ?? ''))) {
      return sendFailure(reply, new AppError(ResultCode.BAD_PARAM, 'badMultipart', {}, 'body'), lang);
    }
    if (error instanceof SyntaxError || (error.statusCode && error.statusCode < 500)) {
      return sendFailure(reply, new AppError(ResultCode.BAD_PARAM, 'badJson', {}, 'body'), lang);
    }
    request.log.error({ err: error, reqId: request.id }, 'unhandled error');
    return sendFailure(reply, new AppError(ResultCode.INTERNAL, 'internal'), lang);
  });
}

/** Unknown API paths answer with the envelope; with the web app served, other GETs get index.html (the SPA routes them). */
export function registerNotFound(app: FastifyInstance, spaFallback: boolean) {
  app.setNotFoundHandler((request, reply) => {
    if (spaFallback && isSpaNavigation(request.method, request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const lang = parseLang(request.headers['x-lang']);
    const url = request.url.split('?')[0] ?? '';
    return sendFailure(
      reply,
      new AppError(ResultCode.NOT_FOUND, 'notFound', { method: request.method, url: url.slice(0, 200) }),
      lang,
    );
  });
}
