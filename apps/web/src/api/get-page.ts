import type { Endpoint } from '@ipp/contracts/endpoint-paths';
import { parseData, requestEnvelope, type RequestOptions } from './client';

/** One page of a list and the total the envelope's `count` carries. */
export interface Page<T> {
  items: T[];
  total: number;
}

interface ArrayParser<T> {
  safeParse(value: unknown): { success: true; data: T[] } | { success: false };
}

/** GET of a paged list (page is 1-based); empty filters are left out of the query. */
export async function getPage<T>(
  endpoint: Endpoint & { method: 'GET' },
  schema: ArrayParser<T>,
  query: Record<string, string | number | undefined>,
  options: { signal?: AbortSignal } = {},
): Promise<Page<T>> {
  const cleaned: RequestOptions['query'] = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') cleaned[key] = value;
  const envelope = await requestEnvelope(endpoint, { query: cleaned, signal: options.signal });
  return { items: parseData(schema, envelope.data), total: envelope.count };
}
