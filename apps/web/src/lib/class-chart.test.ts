import type { ClassCount } from '@ipp/contracts';
import { describe, expect, it } from 'vitest';
import { OTHERS_COLOR } from './chart-option';
import { classPieOption, classSlices, pieLabelName } from './class-chart';

const NAMES = { unclassified: 'Unclassified', others: 'Others' };
const cls = (id: number | null, count: number): ClassCount => ({
  class_id: id,
  name: id === null ? null : `00${id} C${id}`,
  count,
});

describe('class slices', () => {
  it('keep the six largest classes and sum the rest as "Others" (spec §9)', () => {
    const classes = [cls(1, 5), cls(2, 50), cls(3, 40), cls(4, 30), cls(5, 20), cls(6, 10), cls(7, 8), cls(8, 2)];
    const slices = classSlices(classes, NAMES);
    expect(slices.map((slice) => [slice.name, slice.count])).toEqual([
      ['002 C2', 50],
      ['003 C3', 40],
      ['004 C4', 30],
      ['005 C5', 20],
      ['006 C6', 10],
      ['007 C7', 8],
      ['Others', 7],
    ]);
    expect(slices.at(-1)?.others).toBe(true);
  });

  it('add what the server already summed outside its top classes', () => {
    const slices = classSlices([cls(1, 10), cls(2, 5)], NAMES, 12);
    expect(slices.at(-1)).toEqual({ name: 'Others', count: 12, others: true });
  });

  it('name ROIs without a class and leave out empty classes and an empty "Others"', () => {
    const slices = classSlices([cls(null, 4), cls(1, 0), cls(2, 3)], NAMES);
    expect(slices).toEqual([
      { name: 'Unclassified', count: 4, others: false },
      { name: '002 C2', count: 3, others: false },
    ]);
    expect(classSlices([], NAMES)).toEqual([]);
  });
});

describe('class pie', () => {
  it('draws one slice per class with "Others" in grey', () => {
    const option = classPieOption(classSlices([cls(1, 10)], NAMES, 3), 'ROIs');
    const series = (option.series as { data: { name: string; value: number; itemStyle: { color: string } }[] }[])[0];
    expect(series?.data.map((slice) => [slice.name, slice.value])).toEqual([
      ['001 C1', 10],
      ['Others', 3],
    ]);
    expect(series?.data[1]?.itemStyle.color).toBe(OTHERS_COLOR);
    expect(series?.data[0]?.itemStyle.color).not.toBe(OTHERS_COLOR);
  });
});

describe('pie labels', () => {
  it('wrap a class name after its code, never inside a word', () => {
    expect(pieLabelName('004Appendicularian')).toBe('004 Appendicularian');
    expect(pieLabelName('002Diatom_chain')).toBe('002 Diatom_chain');
    expect(pieLabelName('101 Copepod')).toBe('101 Copepod');
    expect(pieLabelName('Others')).toBe('Others');
    expect(pieLabelName('12345')).toBe('12345');
    const label = (
      classPieOption([{ name: '003Dinoflagellate', count: 1, others: false }], 'ROIs').series as {
        label: { formatter: (p: { name: string; percent: number }) => string };
      }[]
    )[0]!.label;
    expect(label.formatter({ name: '003Dinoflagellate', percent: 12.5 })).toBe('003 Dinoflagellate\n12.5%');
  });
});
