import type { Measures } from '@ipp/contracts';
import { Collapse, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';

type Unit = 'px' | 'px2' | 'px3' | '';

/** What is shown, in this order: the measure, its unit, its decimals. */
const ROWS: readonly [keyof Measures, Unit, number][] = [
  ['area_px', 'px2', 0],
  ['perimeter_px', 'px', 1],
  ['equivalent_diameter_px', 'px', 1],
  ['major_axis_px', 'px', 1],
  ['minor_axis_px', 'px', 1],
  ['feret_px', 'px', 1],
  ['elongation', '', 2],
  ['eccentricity', '', 3],
  ['circularity', '', 3],
  ['solidity', '', 3],
  ['convexity', '', 3],
  ['mean_intensity', '', 1],
  ['biovolume_px3', 'px3', 0],
];

const UNITS: Record<Unit, string> = { px: ' px', px2: ' px²', px3: ' px³', '': '' };

export function formatMeasure(value: number, digits: number, unit: Unit): string {
  // Biovolumes of large organisms run to ten digits: shown in scientific notation beyond a million.
  const text = Math.abs(value) >= 1e6 ? value.toExponential(2) : value.toFixed(digits);
  return `${text}${UNITS[unit]}`;
}

/** The morphology of the segmented organism, folded away until asked for. */
export function MeasuresList({ measures }: { measures: Measures }) {
  const { t } = useTranslation();
  return (
    <Collapse
      size="small"
      ghost
      items={[
        {
          key: 'measures',
          label: t('identify.ai.measures'),
          children: (
            <Descriptions
              size="small"
              column={1}
              bordered
              items={ROWS.map(([key, unit, digits]) => ({
                key,
                label: t(`identify.ai.measure.${key}`),
                children: <span data-testid={`ai-measure-${key}`}>{formatMeasure(measures[key], digits, unit)}</span>,
              }))}
            />
          ),
        },
      ]}
      data-testid="ai-measures"
    />
  );
}
