import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// Evaluated rather than added as a <script>: the console's CSP allows no script but its own.
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's violations on the page as it stands (WCAG 2.x A and AA rules and axe's best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (detail) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    }
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => `${n.target.map(String).join(' ')}${detail ? ` ${n.failureSummary}` : ''}`),
    }));
  }, process.env.AXE_DETAIL === '1');
}

/** The critical and serious ones, as `rule: element` lines (what a failing test prints). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const found = await axeViolations(page);
  return found
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .flatMap((v) => v.targets.map((target) => `${v.id} (${v.impact}): ${target}`));
}
