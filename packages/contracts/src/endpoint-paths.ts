/** An HTTP call: its method and its path, under /api unless \`root\` (spec §7: uploads, folders/*, enhance). */
export interface Endpoint {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly root?: boolean;
}

/** The endpoint's path with its parameters filled in: `/roi/file/:name` → `/roi/file/<name>`. */
export function pathOf(e: Endpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return e.path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${e.path} needs its "${key}"`);
    return encodeURIComponent(String(value));
  });
}

/** The URL path a client calls, from the server's root: under /api unless the endpoint is a root one. */
export function urlPathOf(e: Endpoint, params: Readonly<Record<string, string | number>> = {}): string {
  return `${e.root ? '' : '/api'}${pathOf(e, params)}`;
}
