/**
 * SQL lives in repositories (*.repository.ts): services hold the rules and call them. This counts the query-builder
 * and raw-SQL calls in every other file under src/modules: there are none (issue 24 moved all 76, file by file), and a
 * new statement outside a repository fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTs, sourceFiles } from './helpers/sources.ts';

const MODULES = path.resolve(import.meta.dirname, '../src/modules');
const STATEMENT = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|sql[<`]/g;

const sources = (dir: string) => sourceFiles(dir, isTs);

export function sqlOutsideRepositories(root = MODULES): Record<string, number> {
  const out: Record<string, number> = {};
  for (const file of sources(root)) {
    if (file.endsWith('.repository.ts')) continue;
    const n = fs.readFileSync(file, 'utf8').match(STATEMENT)?.length ?? 0;
    if (n > 0) out[path.relative(root, file).split(path.sep).join('/')] = n;
  }
  return out;
}

describe('SQL in repositories', () => {
  it('finds SQL only in repositories', () => {
    expect(sqlOutsideRepositories()).toEqual({});
  });

  it('counts a statement in a service, and none in a repository', () => {
    const dir = fs.mkdtempSync(path.join(import.meta.dirname, 'tmp-sql-'));
    try {
      fs.mkdirSync(path.join(dir, 'm'));
      fs.writeFileSync(path.join(dir, 'm/m.service.ts'), "db.selectFrom('t').selectAll(); sql`select 1`;");
      fs.writeFileSync(path.join(dir, 'm/m.repository.ts'), "db.deleteFrom('t');");
      expect(sqlOutsideRepositories(dir)).toEqual({ 'm/m.service.ts': 2 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
