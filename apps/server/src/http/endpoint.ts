import { envelopeOf, type Endpoint, type EndpointSchemas } from '@ipp/contracts';
import type { z } from 'zod';

/** What the OpenAPI page says of a route; everything else comes from the contract. */
export interface RouteDoc {
  tags: string[];
  summary: string;
  description?: string;
  produces?: string[];
  consumes?: string[];
  security?: ReadonlyArray<Record<string, readonly string[]>>;
}

type Envelope<D extends z.ZodType> = ReturnType<typeof envelopeOf<D>>;

/** The route's schema, typed from the contract, so the handler's request and answer are checked against it. */
export interface EndpointRouteSchema<E extends EndpointSchemas> extends RouteDoc {
  querystring: E['query'];
  params: E['params'];
  body: E['body'];
  response: E extends { data: infer D extends z.ZodType }
    ? { 200: Envelope<D> }
    : E extends { stream: infer S extends z.ZodType }
      ? { 200: S }
      : undefined;
}

/**
 * Method, URL and schemas of a route, from its contract entry (packages/contracts/src/api.ts), for `app.route`:
 *
 *   app.route({ ...endpoint(API.groupIndex, { tags, summary }), config: { access }, handler })
 *
 * The path and schemas are therefore written once, in the contract, which the web's fetchers use too.
 */
export function endpoint<const E extends Endpoint & EndpointSchemas>(
  e: E,
  doc: RouteDoc,
): { method: E['method']; url: E['path']; schema: EndpointRouteSchema<E> } {
  const schema: Record<string, unknown> = { ...doc };
  if (e.query) schema.querystring = e.query;
  if (e.params) schema.params = e.params;
  if (e.body) schema.body = e.body;
  if (e.data) schema.response = { 200: envelopeOf(e.data) };
  else if (e.stream) schema.response = { 200: e.stream };
  return { method: e.method, url: e.path, schema: schema as unknown as EndpointRouteSchema<E> };
}
