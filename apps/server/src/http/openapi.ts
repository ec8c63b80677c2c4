import { FailureEnvelopeSchema } from '@ipp/contracts';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from './access.ts';

/**
 * A multipart route's form, for its documentation (route option `multipart`): the text fields, as the schema the
 * handler parses them with, and the one file part `file`. The handler reads the parts itself, so the document is
 * the only place the form is declared as a whole.
 */
export interface MultipartForm {
  fields?: z.ZodObject;
  file: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    multipart?: MultipartForm;
  }
}

/** The failure envelope, one named component that every error answer of the document points to. */
const Failure = FailureEnvelopeSchema.meta({
  id: 'Failure',
  description: "Failure envelope: the result code, the message in the caller's language in `data` and in `msg`.",
});

const failure = (description: string) => ({ description, content: { 'application/json': { schema: Failure } } });

interface RouteInfo {
  access?: Access;
  expensive?: boolean;
  multipart?: MultipartForm;
}

/** The multipart request body as JSON Schema: the fields, then `file` (binary). */
function formOf(form: MultipartForm) {
  const fields = form.fields
    ? (z.toJSONSchema(form.fields, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      })
    : {};
  return {
    type: 'object',
    properties: { ...fields.properties, file: { type: 'string', format: 'binary', description: form.file } },
    required: [...(fields.required ?? []), 'file'],
  };
}

/**
 * The error answers a route can give, by HTTP status (docs/reliability.md, http/envelope.ts HTTP_STATUS_OF): every
 * route may answer 400, 404, 422, 500 and 503 (its deadline passed); a route behind a credential 401, and 403 where it
 * also names roles (or refuses demo accounts' writes); every route a person calls 429 (throttled attempts, password
 * checks, expensive calls in flight); routes with a body 408, 413 and 415.
 */
export function errorAnswersOf(route: RouteInfo, method: string, multipart: boolean): Record<number, ReturnType<typeof failure>> {
  const out: Record<number, ReturnType<typeof failure>> = {
    400: failure('1002: a parameter is missing or invalid (model.field names it), or the body is malformed.'),
    404: failure('1004: nothing at this path, or no file stored under this name.'),
    422: failure('1001: the operation was refused (the message says why).'),
    500: failure('1500: an internal error (model.requestId identifies it in the log).'),
    503: failure('1500: the request passed its deadline, or the server is shutting down.'),
  };
  const access = route.access;
  if (access !== 'public') {
    out[401] = failure(
      access === 'device' ? '1010: the device key is missing or unknown.' : '1010: the token is missing, invalid or expired.',
    );
  }
  if (access !== 'public' && access !== 'device') {
    out[403] = failure(
      `1011: the caller's role may not make this call${method === 'GET' ? '' : ', or a demo account tried to change something'}.`,
    );
  }
  if (access !== 'device') {
    out[429] = failure(
      route.expensive
        ? "1003: the caller already has as many expensive calls in flight as allowed, or the server is busy with other users' expensive calls for more than 5 seconds; try again later."
        : '1003: too many attempts (sign-in, password) or password checks at once; try again later.',
    );
  }
  if (multipart || method !== 'GET') {
    out[408] = failure('1002: the body arrived too slowly.');
    out[413] = failure(multipart ? '1002: the upload is larger than the route accepts.' : '1002: the body is too large.');
    out[415] = failure(
      multipart
        ? '1002: the file is not an image or archive of an accepted type, or the body is not multipart.'
        : '1002: the body is not JSON.',
    );
  }
  return out;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The OpenAPI transform (`@fastify/swagger`): zod schemas to JSON Schema (fastify-type-provider-zod), plus what the
 * route's own schema does not say: its error answers, and the credential it needs (none for public calls, the device
 * key for instrument calls, the user token otherwise: the document's default).
 */
export function openapiTransform(input: TransformInput) {
  const { schema, route } = input;
  const config = (route.config ?? {}) as RouteInfo;
  // Routes without an access rule (the console's files, the docs) keep the plain transform.
  if (!schema || schema.hide || config.access === undefined) return jsonSchemaTransform(input);
  const method = [route.method].flat()[0] ?? 'GET';
  const multipart = config.multipart !== undefined;
  const response = { ...errorAnswersOf(config, String(method), multipart), ...(schema.response as object | undefined) };
  const security = config.access === 'public' ? [] : config.access === 'device' ? [{ deviceKey: [] }] : undefined;
  const out = jsonSchemaTransform({
    ...input,
    schema: { ...schema, response, ...(security ? { security } : {}) },
  });
  if (config.multipart) (out.schema as Record<string, unknown>).body = formOf(config.multipart);
  return out;
}
