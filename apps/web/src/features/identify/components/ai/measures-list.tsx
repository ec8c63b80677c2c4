import { toPhysical, type Measures, type PixelPower } from '@ipp/contracts';
import { Collapse, Descriptions, Typography } from 'antd';
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

const PHYSICAL: Record<Exclude<Unit, ''>, { power: PixelPower; unit: string }> = {
  px: { power: 1, unit: ' µm' },
  px2: { power: 2, unit: ' µm²' },
  px3: { power: 3, unit: ' mm³' },
};

/** A pixel measure in physical units, for a station of `pixelSizeUm` micrometres per pixel. */
export function formatPhysical(value: number, unit: Exclude<Unit, ''>, pixelSizeUm: number): string {
  const { power, unit: label } = PHYSICAL[unit];
  const physical = toPhysical(value, power, pixelSizeUm);
  const text =
    physical === 0
      ? '0'
      : Math.abs(physical) >= 1e6 || Math.abs(physical) < 1e-3
        ? physical.toExponential(2)
        : unit === 'px3'
          ? String(Number(physical.toPrecision(3)))
          : physical.toFixed(unit === 'px' ? 1 : 0);
  return `${text}${label}`;
}

/**
 * The morphology of the segmented organism, folded away until asked for. With the station's pixel size
 * (`pixelSizeUm`) lengths, areas and the biovolume are shown in µm, µm² and mm³ beside the pixels; null says the
 * station has none; undefined (an image of no station) shows pixels only.
 */
export function MeasuresList({ measures, pixelSizeUm }: { measures: Measures; pixelSizeUm?: number | null }) {
  const { t } = useTranslation();
  return (
    <>
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
                  children:
                    unit !== '' && typeof pixelSizeUm === 'number' ? (
                      // Physical first; the pixels under it, smaller (the pane is narrow).
                      <>
                        <div style={{ whiteSpace: 'nowrap' }} data-testid={`ai-measure-${key}-physical`}>
                          {formatPhysical(measures[key], unit, pixelSizeUm)}
                        </div>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`ai-measure-${key}`}>
                          {formatMeasure(measures[key], digits, unit)}
                        </Typography.Text>
                      </>
                    ) : (
                      <span data-testid={`ai-measure-${key}`}>{formatMeasure(measures[key], digits, unit)}</span>
                    ),
                }))}
              />
            ),
          },
        ]}
        data-testid="ai-measures"
      />
      {pixelSizeUm === null && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="ai-measures-no-pixel-size">
          {t('identify.ai.noPixelSize')}
        </Typography.Text>
      )}
    </>
  );
}
