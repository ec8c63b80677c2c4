import { FilterOutlined } from '@ant-design/icons';
import { FEATURE_FILTERS, type FeatureFilter } from '@ipp/contracts';
import { Badge, Button, DatePicker, Flex, Form, InputNumber, Popover, Select } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTeamMembers } from '@/api/get-team-members';
import { useUserInfo } from '@/api/get-user-info';
import { moreFiltersCount, type Filters } from '../utils/list-query';

interface MoreFiltersProps {
  filters: Filters;
  onChange: (patch: Partial<Filters>) => void;
  /** Administrators may pick anyone of the team; others filter on their own labels. */
  isAdmin: boolean;
  groupId?: number;
}

const percent = (share: number | null) => (share === null ? null : Math.round(share * 1000) / 10);
const share = (pct: number | null) => (pct === null ? null : pct / 100);

/**
 * Issue 25's filters, behind one button that counts the ones set: the model's confidence range (%), who labelled
 * the images (me, or for administrators anyone of the team) and when, and a measured feature's range.
 */
export function MoreFilters({ filters, onChange, isAdmin, groupId }: MoreFiltersProps) {
  const { t } = useTranslation();
  const me = useUserInfo();
  const team = useTeamMembers(groupId ?? me.data?.group_id, isAdmin && (groupId ?? me.data?.group_id) != null);
  const [confMin, setConfMin] = useState<number | null>(percent(filters.confMin));
  const [confMax, setConfMax] = useState<number | null>(percent(filters.confMax));
  const commitConfidence = () => {
    if (share(confMin) !== filters.confMin || share(confMax) !== filters.confMax) {
      onChange({ confMin: share(confMin), confMax: share(confMax) });
    }
  };
  const [featureMin, setFeatureMin] = useState<number | null>(filters.featureMin);
  const [featureMax, setFeatureMax] = useState<number | null>(filters.featureMax);
  const commitFeature = () => {
    if (featureMin !== filters.featureMin || featureMax !== filters.featureMax) onChange({ featureMin, featureMax });
  };
  const people = [
    ...(me.data ? [{ value: me.data.id, label: t('identify.more.me', { name: me.data.name }) }] : []),
    ...(team.data ?? []).filter((u) => u.id !== me.data?.id).map((u) => ({ value: u.id, label: u.name })),
  ];
  const count = moreFiltersCount(filters);
  const content = (
    <Form layout="vertical" size="small" style={{ width: 320 }} data-testid="identify-more-filters">
      <Form.Item label={t('identify.more.confidence')} style={{ marginBottom: 12 }}>
        <Flex align="center" gap={4}>
          <InputNumber<number>
            min={0}
            max={100}
            precision={1}
            suffix="%"
            value={confMin}
            onChange={setConfMin}
            onBlur={commitConfidence}
            onPressEnter={commitConfidence}
            placeholder={t('identify.more.min')}
            aria-label={t('identify.more.confMin')}
            style={{ flex: 1 }}
            data-testid="identify-conf-min"
          />
          <span>–</span>
          <InputNumber<number>
            min={0}
            max={100}
            precision={1}
            suffix="%"
            value={confMax}
            onChange={setConfMax}
            onBlur={commitConfidence}
            onPressEnter={commitConfidence}
            placeholder={t('identify.more.max')}
            aria-label={t('identify.more.confMax')}
            style={{ flex: 1 }}
            data-testid="identify-conf-max"
          />
        </Flex>
      </Form.Item>
      <Form.Item label={t('identify.more.labelledBy')} style={{ marginBottom: 12 }}>
        <Select<number | 'anyone'>
          value={filters.labelledBy ?? 'anyone'}
          onChange={(value) => onChange({ labelledBy: value === 'anyone' ? null : value })}
          options={[{ value: 'anyone', label: t('identify.more.anyone') }, ...people]}
          showSearch={{ optionFilterProp: 'label' }}
          aria-label={t('identify.more.labelledBy')}
          data-testid="identify-labelled-by"
        />
      </Form.Item>
      <Form.Item label={t('identify.more.labelledBetween')} style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          style={{ width: '100%' }}
          value={filters.labelledBetween ? [dayjs(filters.labelledBetween[0]), dayjs(filters.labelledBetween[1])] : null}
          onChange={(range) =>
            onChange({
              labelledBetween:
                range?.[0] && range[1] ? [range[0].startOf('day').valueOf(), range[1].endOf('day').valueOf()] : null,
            })
          }
          data-testid="identify-labelled-between"
        />
      </Form.Item>
      <Form.Item label={t('identify.more.feature')} style={{ marginBottom: 12 }}>
        <Flex vertical gap={4}>
          <Select<FeatureFilter | 'none'>
            value={filters.feature ?? 'none'}
            onChange={(feature) => onChange({ feature: feature === 'none' ? null : feature })}
            options={[
              { value: 'none', label: t('identify.more.featureNone') },
              ...FEATURE_FILTERS.map((name) => ({ value: name, label: t(`identify.more.features.${name}`) })),
            ]}
            aria-label={t('identify.more.feature')}
            data-testid="identify-feature"
          />
          <Flex align="center" gap={4}>
            <InputNumber<number>
              disabled={filters.feature === null}
              value={featureMin}
              onChange={setFeatureMin}
              onBlur={commitFeature}
              onPressEnter={commitFeature}
              placeholder={t('identify.more.min')}
              aria-label={t('identify.more.featureMin')}
              style={{ flex: 1 }}
              data-testid="identify-feature-min"
            />
            <span>–</span>
            <InputNumber<number>
              disabled={filters.feature === null}
              value={featureMax}
              onChange={setFeatureMax}
              onBlur={commitFeature}
              onPressEnter={commitFeature}
              placeholder={t('identify.more.max')}
              aria-label={t('identify.more.featureMax')}
              style={{ flex: 1 }}
              data-testid="identify-feature-max"
            />
          </Flex>
        </Flex>
      </Form.Item>
      <Button
        size="small"
        disabled={count === 0}
        onClick={() => {
          setConfMin(null);
          setConfMax(null);
          setFeatureMin(null);
          setFeatureMax(null);
          onChange({
            confMin: null,
            confMax: null,
            labelledBy: null,
            labelledBetween: null,
            feature: null,
            featureMin: null,
            featureMax: null,
          });
        }}
        data-testid="identify-more-clear"
      >
        {t('identify.more.clear')}
      </Button>
    </Form>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomLeft" title={t('identify.more.title')}>
      <Badge count={count} size="small">
        <Button icon={<FilterOutlined />} data-testid="identify-more" aria-label={t('identify.more.title')}>
          {t('identify.more.button')}
        </Button>
      </Badge>
    </Popover>
  );
}
