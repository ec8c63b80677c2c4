import type { Evaluation } from '../modules/recognition/classifier/evaluation.ts';

/** eval:classifier's Markdown: figures (balanced accuracy first), per-class table and confusion matrix. */
export const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
export function median(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
}
export const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** The evaluation as Markdown: figures, per-class table and confusion matrix (rows true, columns predicted). */
export function render(title: string, ev: Evaluation, names: string[], notes: string[], curve: string[] = []): string {
  const name = (id: number) => names[id] ?? `#${id}`;
  const lines: string[] = [`# ${title}`, ''];
  for (const note of notes) lines.push(`- ${note}`);
  lines.push(
    '',
    `**Balanced accuracy ${pct(ev.balancedAccuracy)}**, top-1 accuracy ${pct(ev.accuracy)}${ev.ece === undefined ? '' : `, expected calibration error ${pct(ev.ece)}`} (${ev.n} images).`,
    ...(curve.length ? ['', ...curve] : []),
    '',
    '## Per class (worst recall first)',
    '',
    '| class | precision | recall | support |',
    '| --- | ---: | ---: | ---: |',
  );
  const rows = [...ev.perClass].sort((a, b) => a.recall - b.recall || b.support - a.support);
  for (const m of rows) lines.push(`| ${name(m.class_id)} | ${pct(m.precision)} | ${pct(m.recall)} | ${m.support} |`);
  lines.push(
    '',
    '## Confusion matrix',
    '',
    'Rows: true class; columns: predicted class, numbered as the rows. A prediction among an image’s classes counts on the diagonal.',
    '',
  );
  const header = ['| # | true \\ predicted |', ...ev.classes.map((_, j) => ` ${j + 1} |`)].join('');
  lines.push(header, `| ---: | --- |${ev.classes.map(() => ' ---: |').join('')}`);
  ev.confusion.forEach((row, i) => {
    const cells = row.map((v, j) => (v === 0 ? ' · |' : i === j ? ` **${v}** |` : ` ${v} |`)).join('');
    lines.push(`| ${i + 1} | ${name(ev.classes[i]!)} |${cells}`);
  });
  return `${lines.join('\n')}\n`;
}
