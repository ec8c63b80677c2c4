/** Helpers every repository shares: they build no query of their own. */

/** LIKE's wildcards and its escape character taken literally (the queries say `escape '\\'`). */
export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQL parameter lists stay well under SQLite's and PostgreSQL's limits. */
export function idChunks<T>(ids: readonly T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}
