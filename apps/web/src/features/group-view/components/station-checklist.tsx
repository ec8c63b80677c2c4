import type { Ipp } from '@ipp/contracts';
import { Button, Checkbox, Col, Flex, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface StationChecklistProps {
  stations: readonly Ipp[];
  /** Ids the user follows now; ids of stations no longer in the team are dropped. */
  initial: readonly number[];
  saving: boolean;
  onSave: (ids: number[]) => void;
}

/** The team's stations as ticks; Save sends the ticked ones in list order. */
export function StationChecklist({ stations, initial, saving, onSave }: StationChecklistProps) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<ReadonlySet<number>>(
    () => new Set(initial.filter((id) => stations.some((station) => station.id === id))),
  );
  const all = checked.size === stations.length;

  return (
    <Flex vertical gap="middle">
      <Flex justify="space-between" align="center" wrap gap="small">
        <Checkbox
          checked={all}
          indeterminate={checked.size > 0 && !all}
          onChange={(event) => setChecked(new Set(event.target.checked ? stations.map((station) => station.id) : []))}
          data-testid="group-view-all"
        >
          {t('groupView.selectAll')}
        </Checkbox>
        <Typography.Text type="secondary" data-testid="group-view-count">
          {t('groupView.selected', { count: checked.size, total: stations.length })}
        </Typography.Text>
      </Flex>
      <Checkbox.Group style={{ width: '100%' }} value={[...checked]} onChange={(values) => setChecked(new Set(values))}>
        <Row gutter={[16, 8]} style={{ width: '100%' }}>
          {stations.map((station) => (
            <Col key={station.id} xs={24} md={12} xl={8}>
              <Checkbox value={station.id} data-testid={`group-view-item-${station.dev_id}`}>
                {station.site_name ? (
                  <>
                    {station.site_name} <Typography.Text type="secondary">{station.dev_id}</Typography.Text>
                  </>
                ) : (
                  station.dev_id
                )}
              </Checkbox>
            </Col>
          ))}
        </Row>
      </Checkbox.Group>
      <div>
        <Button
          type="primary"
          loading={saving}
          onClick={() => onSave(stations.filter((station) => checked.has(station.id)).map((station) => station.id))}
          data-testid="group-view-save"
        >
          {t('common.save')}
        </Button>
      </div>
    </Flex>
  );
}
