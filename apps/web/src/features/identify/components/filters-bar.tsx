import { SortAscendingOutlined, SortDescendingOutlined } from '@ant-design/icons';
import { RELATIVE_STARTS, ROI_FLAG_FILTERS, SORT_FIELDS, type RoiFlagFilter, type SortField } from '@ipp/contracts';
import { Button, DatePicker, Flex, InputNumber, Segmented, Select, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoreFilters } from './more-filters';
import { DATE_TIME_FORMAT, type Filters, type RecognitionGroup, type RelativeStart, type SizeUnit } from '../utils/list-query';

/** i18n ids of the relative starts of spec §5 (the values themselves hold spaces). */
const RELATIVE_IDS: Record<RelativeStart, string> = {
  '-24 hour': '24h',
  '-3 day': '3d',
  '-7 day': '7d',
  '-15 day': '15d',
  '-31 day': '1m',
  '-3 month': '3m',
  '-6 month': '6m',
  '-12 month': '1y',
};

type TimeChoice = 'all' | 'custom' | RelativeStart;

interface FiltersBarProps {
  filters: Filters;
  onChange: (filters: Filters) => void;
  /** The review queue: pending or reviewed. */
  review: boolean;
  /** For "validated by": administrators pick anyone of the team (the superadmin: of the chosen team). */
  isAdmin?: boolean;
  groupId?: number;
}

/** Recognition group, capture time, size range, the instrument's state at capture, sort, and (in review) pending or reviewed. */
export const FiltersBar = memo(function FiltersBar({ filters, onChange, review, isAdmin = false, groupId }: FiltersBarProps) {
  const { t } = useTranslation();
  const [custom, setCustom] = useState(filters.time.kind === 'range');
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const timeChoice: TimeChoice = filters.time.kind === 'relative' ? filters.time.start : custom ? 'custom' : 'all';
  const [sizeMin, setSizeMin] = useState<number | null>(filters.sizeMin);
  const [sizeMax, setSizeMax] = useState<number | null>(filters.sizeMax);
  const commitSize = () => {
    if (sizeMin !== filters.sizeMin || sizeMax !== filters.sizeMax) set({ sizeMin, sizeMax });
  };

  return (
    <Flex wrap gap="small" align="center" role="group" aria-label={t('identify.filters.label')} data-testid="identify-filters">
      {review && (
        <Segmented<0 | 1>
          value={filters.reviewed}
          onChange={(reviewed) => set({ reviewed })}
          options={[
            { value: 0, label: <span data-testid="identify-reviewed-0">{t('identify.filters.pending')}</span> },
            { value: 1, label: <span data-testid="identify-reviewed-1">{t('identify.filters.reviewed')}</span> },
          ]}
        />
      )}
      <Segmented<RecognitionGroup | 'all'>
        value={filters.dataIndex ?? 'all'}
        onChange={(value) => set({ dataIndex: value === 'all' ? null : value })}
        options={(['all', 'ai', 'hi', 'ui'] as const).map((value) => ({
          value,
          label: (
            <span data-testid={`identify-data-index-${value}`}>
              {value === 'all' ? t('identify.filters.allTypes') : value.toUpperCase()}
            </span>
          ),
        }))}
      />
      <Select<TimeChoice>
        value={timeChoice}
        onChange={(choice) => {
          setCustom(choice === 'custom');
          if (choice === 'all' || choice === 'custom') {
            if (filters.time.kind !== 'all') set({ time: { kind: 'all' } });
          } else set({ time: { kind: 'relative', start: choice } });
        }}
        aria-label={t('identify.filters.time')}
        style={{ width: 140 }}
        options={[
          { value: 'all', label: t('identify.filters.timeAll') },
          ...RELATIVE_STARTS.map((start) => ({ value: start, label: t(`identify.filters.relative.${RELATIVE_IDS[start]}`) })),
          { value: 'custom', label: t('identify.filters.custom') },
        ]}
        data-testid="identify-time"
      />
      {timeChoice === 'custom' && (
        <DatePicker.RangePicker
          showTime
          value={filters.time.kind === 'range' ? [dayjs(filters.time.start), dayjs(filters.time.end)] : null}
          onChange={(range) =>
            set({
              time:
                range?.[0] && range[1]
                  ? { kind: 'range', start: range[0].format(DATE_TIME_FORMAT), end: range[1].format(DATE_TIME_FORMAT) }
                  : { kind: 'all' },
            })
          }
          data-testid="identify-time-range"
        />
      )}
      <Flex align="center" gap={4}>
        <Select<SizeUnit>
          value={filters.sizeUnit}
          onChange={(sizeUnit) => {
            // Bounds in one unit mean nothing in the other: a new unit starts unbounded.
            setSizeMin(null);
            setSizeMax(null);
            set({ sizeUnit, sizeMin: null, sizeMax: null });
          }}
          aria-label={t('identify.filters.sizeUnit')}
          // Wide enough for "等效直径 µm" and "Area, px²".
          style={{ width: 140 }}
          options={[
            { value: 'px', label: t('identify.filters.unitPx') },
            { value: 'um', label: t('identify.filters.unitUm') },
          ]}
          data-testid="identify-size-unit"
        />
        <InputNumber<number>
          min={0}
          precision={filters.sizeUnit === 'um' ? 1 : 0}
          value={sizeMin}
          onChange={setSizeMin}
          onBlur={commitSize}
          onPressEnter={commitSize}
          placeholder={t(filters.sizeUnit === 'um' ? 'identify.filters.esdMin' : 'identify.filters.sizeMin')}
          aria-label={t(filters.sizeUnit === 'um' ? 'identify.filters.esdMin' : 'identify.filters.sizeMin')}
          style={{ width: 120 }}
          data-testid="identify-size-min"
        />
        <span>–</span>
        <InputNumber<number>
          min={0}
          precision={filters.sizeUnit === 'um' ? 1 : 0}
          value={sizeMax}
          onChange={setSizeMax}
          onBlur={commitSize}
          onPressEnter={commitSize}
          placeholder={t(filters.sizeUnit === 'um' ? 'identify.filters.esdMax' : 'identify.filters.sizeMax')}
          aria-label={t(filters.sizeUnit === 'um' ? 'identify.filters.esdMax' : 'identify.filters.sizeMax')}
          style={{ width: 120 }}
          data-testid="identify-size-max"
        />
      </Flex>
      <Select<RoiFlagFilter | 'all'>
        value={filters.flag ?? 'all'}
        onChange={(flag) => set({ flag: flag === 'all' ? null : flag })}
        aria-label={t('roiFlags.filter.label')}
        title={t('roiFlags.filter.label')}
        popupMatchSelectWidth={false}
        // As wide as the chosen state, whole ("Temperature o…" was cut at 150 px, issue 37).
        style={{ minWidth: 150 }}
        options={(['all', ...ROI_FLAG_FILTERS] as const).map((value) => ({ value, label: t(`roiFlags.filter.${value}`) }))}
        data-testid="identify-flag"
      />
      <MoreFilters filters={filters} onChange={set} isAdmin={isAdmin} groupId={groupId} />
      <Flex align="center" gap={4}>
        <Select<SortField>
          value={filters.sort}
          onChange={(sort) => set({ sort })}
          aria-label={t('identify.filters.sort')}
          // Wide enough for the longest field name in either language ("Capture time" was cut, issue 20).
          popupMatchSelectWidth={false}
          style={{ width: 150 }}
          options={SORT_FIELDS.map((field) => ({ value: field, label: t(`identify.filters.sortFields.${field}`) }))}
          data-testid="identify-sort"
        />
        <Tooltip title={t(filters.order === 'asc' ? 'identify.filters.asc' : 'identify.filters.desc')}>
          <Button
            icon={filters.order === 'asc' ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
            aria-label={t(filters.order === 'asc' ? 'identify.filters.asc' : 'identify.filters.desc')}
            onClick={() => set({ order: filters.order === 'asc' ? 'desc' : 'asc' })}
            data-testid="identify-order"
            data-order={filters.order}
          />
        </Tooltip>
      </Flex>
    </Flex>
  );
});
