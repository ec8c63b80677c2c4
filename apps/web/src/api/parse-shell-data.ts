import { failTransport, parseData, type SafeParser } from './client';
import type * as ShellSchemaModule from './shell-schemas';

type ShellSchemas = typeof ShellSchemaModule;

let loading: Promise<ShellSchemas> | null = null;

/** Starts loading the shell's schemas (and zod) unless they are loaded: call it before sending the request. */
export function loadShellSchemas(): Promise<ShellSchemas> {
  if (!loading) {
    const load = import('./shell-schemas');
    // A failed load is tried again by the next call.
    load.catch(() => (loading = null));
    loading = load;
  }
  return loading;
}

/**
 * parseData with one of the shell's schemas, loaded on first use. Schemas that cannot be loaded fail the call as the
 * network would have.
 */
export async function parseShellData<T>(
  pick: (schemas: ShellSchemas) => SafeParser<T>,
  data: unknown,
  options: { silent?: boolean } = {},
): Promise<T> {
  let schemas: ShellSchemas;
  try {
    schemas = await loadShellSchemas();
  } catch {
    failTransport('transport', undefined, null, options.silent ?? false);
  }
  return parseData(pick(schemas), data, options);
}
