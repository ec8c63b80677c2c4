import { describe, expect, it } from 'vitest';

// Every source file, as text: the boundary below is about how modules import, which only the source shows.
const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const runtimeEchartsImport = /^import\s+(?!type\b)[^;]*?from\s+'echarts[^']*'/m;

describe('chart code boundary', () => {
  it('loads ECharts in one module, from echarts/core and the parts it registers only', () => {
    const importers = Object.entries(sources)
      .filter(([, text]) => runtimeEchartsImport.test(text))
      .map(([file]) => file);
    expect(importers).toEqual(['/src/lib/echarts.ts']);
    const echarts = sources['/src/lib/echarts.ts'] ?? '';
    const modules = [...echarts.matchAll(/from '(echarts[^']*)'/g)].map((match) => match[1]);
    expect(modules.length).toBeGreaterThan(0);
    for (const name of modules)
      expect(['echarts/core', 'echarts/charts', 'echarts/components', 'echarts/renderers']).toContain(name);
  });

  it('is reached only through a dynamic import, so the sign-in bundle holds no chart code', () => {
    const staticImporters = Object.entries(sources)
      .filter(([, text]) => /^import\s+(?!type\b)[^;]*?from\s+'@\/lib\/echarts'/m.test(text))
      .map(([file]) => file);
    expect(staticImporters).toEqual([]);
    expect(sources['/src/components/echart/echart.tsx']).toContain("import('@/lib/echarts')");
  });
});
