import { ResultCode } from '@ipp/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
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

/** Turns one zod issue into a 1002 error that names the field and says why, in words we can translate. */
export function validationToAppError(issue: ValidationIssue): AppError {
  const p = issue.params;
  let field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  let reason: MessageKey = 'reason.invalid';
  const params: MessageParams = {};
  switch (issue.keyword) {
    case 'invalid_type':
      if (/received undefined/.test(issue.message ?? '')) reason = 'reason.required';
      else {
        reason = 'reason.type';
        params.expected = String(p.expected);
      }
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

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = parseLang(request.headers['x-lang']);
    if (error instanceof AppError) return sendFailure(reply, error, lang, error.status);
    if (hasZodFastifySchemaValidationErrors(error)) {
      return sendFailure(reply, validationToAppError(error.validation[0] as ValidationIssue), lang);
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
