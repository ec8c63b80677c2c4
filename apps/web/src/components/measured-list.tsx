import { MEASURED_KEYS, type Measured } from '@ipp/contracts';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatCount } from '@/hooks/use-format-count';
import { formatMeasured } from '@/lib/measured';

/** Every measured value of one telemetry sample, '—' for the ones missing (or all, without a sample). */
export function MeasuredList({
  measured,
  testIdPrefix,
  narrow = false,
}: {
  measured: Measured | null;
  testIdPrefix: string;
  /** In a narrow column (a side card): one value per row, whatever the window width. */
  narrow?: boolean;
}) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  return (
    <Descriptions
      size="small"
      column={narrow ? 1 : { xs: 1, sm: 2 }}
      items={MEASURED_KEYS.map((key) => ({
        key,
        label: t(`measured.label.${key}`),
        children: <span data-testid={`${testIdPrefix}-${key}`}>{formatMeasured(key, measured?.[key], { t, formatCount })}</span>,
      }))}
    />
  );
}
