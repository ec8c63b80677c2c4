import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Page, Response } from 'playwright-core';

/**
 * Every JSON answer the console receives in an e2e run is checked against the schema the server's OpenAPI document
 * declares for its route and status (issue 22: "every answer of the fuzzer and of the e2e runs validates against its
 * declared schema"). A page gets the watcher in useConsole's newPage (support/use-console.ts); support/answers-setup.ts
 * fails the test that saw a violation.
 */
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
}

interface Checker {
  validate(method: string, path: string, status: number): ValidateFunction | undefined | null;
}

const checkers = new Map<string, Promise<Checker>>();
const pending = new Set<Promise<void>>();
export const violations: string[] = [];
export const tally = { checked: 0, undeclared: 0 };

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

async function checkerFor(baseURL: string): Promise<Checker> {
  const res = await fetch(`${baseURL}/api/docs/json`);
  const doc = (await res.json()) as Document;
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema(structuredClone(doc), 'openapi');
  // Static paths before templated ones, so /roi/index is not taken for /roi/{id}.
  const templates = Object.keys(doc.paths)
    .map((path) => ({
      path,
      regex: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}|\{\w+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  const compiled = new Map<string, ValidateFunction | undefined | null>();
  return {
    validate(method, path, status) {
      const template = templates.find((t) => t.regex.test(path));
      if (!template) return null;
      const key = `${method} ${template.path} ${status}`;
      if (!compiled.has(key)) {
        const m = method.toLowerCase();
        const declared = doc.paths[template.path]?.[m]?.responses[String(status)]?.content?.['application/json'];
        const ref = `openapi#/${pointer('paths', template.path, m, 'responses', String(status), 'content', 'application/json', 'schema')}`;
        compiled.set(key, declared ? ajv.getSchema(ref) : undefined);
      }
      return compiled.get(key);
    },
  };
}

async function check(baseURL: string, response: Response) {
  const url = new URL(response.url());
  if (url.origin !== new URL(baseURL).origin || !url.pathname.startsWith('/api/')) return;
  if (!/application\/json/.test(response.headers()['content-type'] ?? '')) return;
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return; // the page went away before the body was read
  }
  if (!checkers.has(baseURL)) checkers.set(baseURL, checkerFor(baseURL));
  const checker = await checkers.get(baseURL)!;
  const method = response.request().method();
  const validate = checker.validate(method, url.pathname, response.status());
  const where = `${method} ${url.pathname} → ${response.status()}`;
  if (validate === null || validate === undefined) {
    // An answer the document does not declare at all is a violation too; docs and similar non-API JSON are skipped.
    if (url.pathname.startsWith('/api/docs')) return;
    tally.undeclared++;
    violations.push(`${where}: no schema declared for this answer`);
    return;
  }
  tally.checked++;
  if (!validate(body)) violations.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

export function watchAnswers(page: Page, baseURL: string) {
  page.on('response', (response) => {
    const done = check(baseURL, response).catch((error: unknown) => {
      violations.push(`${response.url()}: the check failed: ${String(error)}`);
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  });
}

/** Waits for the answers still being checked. */
export async function settled() {
  while (pending.size > 0) await Promise.all([...pending]);
}
