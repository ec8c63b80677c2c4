import fs from 'node:fs';
import path from 'node:path';

/**
 * The files under `dir` whose names `accept` takes, depth first; folders `skip` names are not entered. The source
 * checks (module graph, SQL in repositories, paths spelled out) walk the tree with it.
 */
export function sourceFiles(
  dir: string,
  accept: (name: string) => boolean,
  skip: (folder: string) => boolean = () => false,
): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return skip(e.name) ? [] : sourceFiles(full, accept, skip);
    return accept(e.name) ? [full] : [];
  });
}

export const isTs = (name: string) => name.endsWith('.ts');
