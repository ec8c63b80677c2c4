import { SERIES_COMPARISONS, TREND_GROUPS, type TrendGroup, type TrendSeriesKey } from '@ipp/contracts';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { MEASURED_FIELDS } from '@/lib/measured';

const GROUPS = Object.keys(TREND_GROUPS) as TrendGroup[];

/** A series' unit in the viewer's language ('' for a count or none chosen yet). */
export function useSeriesUnit(series: TrendSeriesKey | null | undefined) {
  const { t } = useTranslation();
  const unit = series ? MEASURED_FIELDS[series].unit : undefined;
  return unit ? t(`measured.unit.${unit}`) : '';
}

/** A series rule's series (every one the contract lists, grouped as the trend charts are) and its comparison. */
export function SeriesFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="series" label={t('alarms.seriesLabel')} rules={[{ required: true, message: t('alarms.seriesRequired') }]}>
        <Select
          showSearch
          optionFilterProp="label"
          // Nineteen series in seven groups: all rendered, so the list is complete to a screen reader too.
          virtual={false}
          data-testid="alarm-rule-series"
          options={GROUPS.map((group) => ({
            label: t(`trends.group.${group}`),
            title: t(`trends.group.${group}`),
            options: TREND_GROUPS[group].map((key) => ({ value: key, label: t(`measured.label.${key}`) })),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="comparison"
        label={t('alarms.comparisonLabel')}
        rules={[{ required: true, message: t('alarms.comparisonRequired') }]}
      >
        <Select
          data-testid="alarm-rule-comparison"
          options={SERIES_COMPARISONS.map((c) => ({ value: c, label: t(`alarms.comparison.${c}`) }))}
        />
      </Form.Item>
    </>
  );
}
