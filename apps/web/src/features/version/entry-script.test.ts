import { describe, expect, it, vi } from 'vitest';
import { currentEntryScript, extractEntryScript, fetchLatestEntryScript, isNewVersion } from './entry-script';

const BUILT_INDEX = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <title>IPP Console</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/vendor-def456.js">
    <link rel="stylesheet" crossorigin href="/assets/index-0f0f0f.css">
  </head>
  <body><div id="root"></div></body>
</html>`;

describe('extractEntryScript', () => {
  it('finds the hashed entry module in a built index.html', () => {
    expect(extractEntryScript(BUILT_INDEX)).toBe('/assets/index-abc123.js');
  });

  it('ignores classic scripts and accepts any attribute order or quoting', () => {
    const html = `<script src="/legacy.js"></script><script src='/assets/index-9.js' type='module'></script>`;
    expect(extractEntryScript(html)).toBe('/assets/index-9.js');
    expect(extractEntryScript('<SCRIPT TYPE=module SRC=/assets/index-7.js></SCRIPT>')).toBe('/assets/index-7.js');
  });

  it('returns null when there is no entry module', () => {
    expect(extractEntryScript('<html><body>Bad gateway</body></html>')).toBeNull();
    expect(extractEntryScript('<script type="module">inline()</script>')).toBeNull();
  });
});

describe('version comparison', () => {
  it('reads the entry script of the running document', () => {
    document.head.innerHTML = '<script type="module" src="/assets/index-abc123.js"></script>';
    expect(currentEntryScript()).toBe('/assets/index-abc123.js');
    document.head.innerHTML = '';
  });

  it('reports a new version only when both hashes are known and differ', () => {
    expect(isNewVersion('/assets/index-a.js', '/assets/index-b.js')).toBe(true);
    expect(isNewVersion('/assets/index-a.js', '/assets/index-a.js')).toBe(false);
    expect(isNewVersion('/assets/index-a.js', null)).toBe(false);
    expect(isNewVersion(null, '/assets/index-b.js')).toBe(false);
  });

  it('fetches the root page without the cache', async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response(BUILT_INDEX, { status: 200 }));
    await expect(fetchLatestEntryScript(fetchImpl)).resolves.toBe('/assets/index-abc123.js');
    expect(fetchImpl).toHaveBeenCalledWith('/', { cache: 'no-store' });
  });

  it('treats an error page as unknown', async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () => new Response(BUILT_INDEX, { status: 503 }));
    await expect(fetchLatestEntryScript(fetchImpl)).resolves.toBeNull();
  });
});
