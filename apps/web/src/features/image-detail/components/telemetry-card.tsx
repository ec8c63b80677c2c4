import type { Measured } from '@ipp/contracts';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MeasuredList } from '@/components/measured-list';
import { formatTimeWithZone } from '@/lib/time-zones';

/** The instrument's state when the image was captured (the telemetry sample at or just before it). */
export function TelemetryCard({ telemetry }: { telemetry: Measured | null }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('image.telemetry')}
      extra={
        <Typography.Text type="secondary">
          {telemetry ? t('image.telemetryAt', { time: formatTimeWithZone(telemetry.at) }) : t('image.noTelemetry')}
        </Typography.Text>
      }
      data-testid="image-telemetry"
      data-has-sample={telemetry !== null}
    >
      <MeasuredList measured={telemetry} testIdPrefix="image-telemetry" narrow />
    </Card>
  );
}
