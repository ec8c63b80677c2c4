import type { Ipp } from '@ipp/contracts';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount, formatFileSize, formatTime } from '@/lib/format';
import {
  TELEMETRY_SECTIONS,
  telemetryOf,
  type TelemetryItem,
  type TelemetrySection,
  type TelemetryValue,
} from '../utils/telemetry';
import { IppStatusBadge } from './ipp-status-badge';

const NONE = '—';

/** Read-only values of one form section, as the instrument reports them. */
export function TelemetryList({ section, ipp }: { section: TelemetrySection; ipp: Ipp | undefined }) {
  const { t } = useTranslation();
  const values = telemetryOf(section, ipp);
  const items = TELEMETRY_SECTIONS[section];
  const missing = items.some((entry) => values[entry.key] === undefined || values[entry.key] === null);

  const show = (entry: TelemetryItem, value: TelemetryValue | undefined) => {
    if (value === undefined || value === null || value === '') return NONE;
    if (entry.format === 'status' && ipp) return <IppStatusBadge ipp={ipp} />;
    if (typeof value !== 'number') return String(value);
    switch (entry.format) {
      case 'count':
        return formatCount(value, (scaled) => t('format.tenThousand', { value: scaled }));
      case 'time':
        return formatTime(value);
      case 'size':
        return formatFileSize(value);
      default:
        // The unit is in the label.
        return String(value);
    }
  };

  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, xl: 3 }}
      title={<Typography.Text type="secondary">{t('ipps.measured')}</Typography.Text>}
      extra={missing && <Typography.Text type="secondary">{t('ipps.telemetryPending')}</Typography.Text>}
      items={items.map((entry) => ({
        key: entry.key,
        label: entry.unitKey ? `${t(`ipps.telemetry.${entry.key}`)} (${t(entry.unitKey)})` : t(`ipps.telemetry.${entry.key}`),
        children: <span data-testid={`ipp-telemetry-${section}-${entry.key}`}>{show(entry, values[entry.key])}</span>,
      }))}
    />
  );
}
