import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Thresholds } from '@ipp/contracts';
import { Alert, App, Button, Flex, Form, InputNumber, Select, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useClasses } from '@/api/get-classes';
import { classOption } from '../../utils/class-name';
import { useThresholds } from '../../api/get-thresholds';
import { useSaveThresholds } from '../../api/save-thresholds';

interface Row {
  class_id: number;
  class_name: string;
  /** 0-1, as the server keeps it; edited as a percentage. */
  threshold: number;
}

const toPercent = (share: number) => Math.round(share * 1000) / 10;
const percentText = (share: number) => `${toPercent(share)}%`;

/** The active model's automatic thresholds, as the server chose them for the saved target precision. */
function AutoThresholds({ saved }: { saved: Thresholds }) {
  const { t } = useTranslation();
  if (!saved.calibrated) return <Typography.Text type="secondary">{t('identify.thresholds.noAuto')}</Typography.Text>;
  type Auto = Thresholds['auto'][number];
  const columns: TableColumnsType<Auto> = [
    { key: 'class', title: t('identify.thresholds.class'), dataIndex: 'class_name', ellipsis: true },
    {
      key: 'threshold',
      title: t('identify.thresholds.autoThreshold'),
      width: 170,
      render: (_, row) =>
        row.threshold === null ? (
          <Typography.Text type="warning">{t('identify.thresholds.unreachable')}</Typography.Text>
        ) : (
          `≥ ${percentText(row.threshold)}`
        ),
    },
    {
      key: 'precision',
      title: t('identify.thresholds.autoPrecision'),
      width: 90,
      align: 'right',
      render: (_, row) => (row.precision === null ? '—' : percentText(row.precision)),
    },
    {
      key: 'coverage',
      title: t('identify.thresholds.autoCoverage'),
      width: 100,
      align: 'right',
      render: (_, row) => percentText(row.coverage),
    },
    { key: 'predicted', title: t('identify.thresholds.autoPredicted'), width: 130, align: 'right', dataIndex: 'predicted' },
  ];
  return (
    <>
      <Typography.Text strong>{t('identify.thresholds.auto')}</Typography.Text>
      <Table<Auto>
        rowKey="class_id"
        size="small"
        columns={columns}
        dataSource={saved.auto}
        pagination={false}
        scroll={{ y: 240 }}
        data-testid="auto-thresholds"
      />
    </>
  );
}
const toShare = (percent: number) => Math.round(percent * 10) / 1000;

/** Confidence thresholds: a default and per-class values; below its threshold an AI label waits for review. */
export function ThresholdsTab({ groupId, readOnly }: { groupId?: number; readOnly: boolean }) {
  const thresholds = useThresholds(groupId);
  if (thresholds.isPending) return <Skeleton active />;
  if (thresholds.isError) return <LoadFailed error={thresholds.error} onRetry={() => void thresholds.refetch()} />;
  // A fresh editor for each answer: after saving it shows what the server kept.
  return <ThresholdsEditor key={thresholds.dataUpdatedAt} saved={thresholds.data} groupId={groupId} readOnly={readOnly} />;
}

function ThresholdsEditor({ saved, groupId, readOnly }: { saved: Thresholds; groupId?: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const classes = useClasses();
  const save = useSaveThresholds(groupId);
  const [fallback, setFallback] = useState<number>(toPercent(saved.default));
  const [target, setTarget] = useState<number>(toPercent(saved.target_precision));
  const [rows, setRows] = useState<Row[]>(saved.items);
  const [adding, setAdding] = useState<{ classId?: number; percent: number | null }>({ percent: null });

  const taken = new Set(rows.map((row) => row.class_id));
  const classOptions = (classes.data ?? []).filter((each) => !taken.has(each.id)).map((each) => classOption(each, t));

  const setRow = (classId: number, percent: number | null) =>
    setRows((current) =>
      current.map((row) => (row.class_id === classId && percent !== null ? { ...row, threshold: toShare(percent) } : row)),
    );
  const removeRow = (classId: number) => setRows((current) => current.filter((row) => row.class_id !== classId));
  const addRow = () => {
    const picked = classes.data?.find((each) => each.id === adding.classId);
    if (!picked) return;
    const percent = adding.percent ?? fallback;
    setRows((current) => [...current, { class_id: picked.id, class_name: picked.title, threshold: toShare(percent) }]);
    setAdding({ percent: null });
  };

  const submit = () => {
    const kept = new Set(rows.map((row) => row.class_id));
    const removed = saved.items.filter((item) => !kept.has(item.class_id));
    save.mutate(
      {
        group_id: groupId,
        default: toShare(fallback),
        target_precision: toShare(target),
        items: [
          ...rows.map((row) => ({ class_id: row.class_id, threshold: row.threshold })),
          ...removed.map((item) => ({ class_id: item.class_id, threshold: null })),
        ],
      },
      { onSuccess: () => void message.success(t('identify.thresholds.saved')) },
    );
  };

  const percentInput = (
    value: number | null,
    onChange: (value: number | null) => void,
    label: string,
    testId: string,
    bounds?: [number, number],
  ) => (
    <InputNumber<number>
      min={bounds?.[0] ?? 0}
      max={bounds?.[1] ?? 100}
      step={5}
      precision={1}
      suffix="%"
      value={value}
      onChange={onChange}
      disabled={readOnly}
      aria-label={label}
      style={{ width: 120 }}
      data-testid={testId}
    />
  );

  const columns: TableColumnsType<Row> = [
    { key: 'class', title: t('identify.thresholds.class'), dataIndex: 'class_name' },
    {
      key: 'threshold',
      title: t('identify.thresholds.value'),
      render: (_, row) =>
        percentInput(
          toPercent(row.threshold),
          (value) => setRow(row.class_id, value),
          `${row.class_name} ${t('identify.thresholds.value')}`,
          `threshold-${row.class_id}`,
        ),
    },
    {
      key: 'remove',
      title: t('common.actions'),
      render: (_, row) => (
        <Button
          size="small"
          type="text"
          danger
          icon={<DeleteOutlined />}
          disabled={readOnly}
          aria-label={t('identify.thresholds.remove', { name: row.class_name })}
          onClick={() => removeRow(row.class_id)}
          data-testid={`threshold-remove-${row.class_id}`}
        />
      ),
    },
  ];

  return (
    <Flex vertical gap="middle" data-testid="thresholds-tab">
      <Alert
        type="info"
        showIcon
        title={t(saved.calibrated ? 'identify.thresholds.explainCalibrated' : 'identify.thresholds.explain')}
      />
      <Form layout="inline" disabled={readOnly} style={{ rowGap: 8 }}>
        <Form.Item label={t('identify.thresholds.target')} extra={t('identify.thresholds.targetHint')}>
          {percentInput(
            target,
            (value) => value !== null && setTarget(value),
            t('identify.thresholds.target'),
            'threshold-target',
            [50, 99.9],
          )}
        </Form.Item>
        <Form.Item
          label={t('identify.thresholds.default')}
          extra={t(saved.calibrated ? 'identify.thresholds.defaultHintCalibrated' : 'identify.thresholds.defaultHint')}
        >
          {percentInput(
            fallback,
            (value) => value !== null && setFallback(value),
            t('identify.thresholds.default'),
            'threshold-default',
          )}
        </Form.Item>
      </Form>
      <AutoThresholds saved={saved} />
      <Typography.Text strong>{t('identify.thresholds.overrides')}</Typography.Text>
      <Table<Row>
        rowKey="class_id"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        locale={{
          emptyText: t(saved.calibrated ? 'identify.thresholds.noOverridesCalibrated' : 'identify.thresholds.noOverrides'),
        }}
        onRow={(row) => ({ 'data-testid': `threshold-row-${row.class_id}` }) as HTMLAttributes<HTMLElement>}
      />
      {!readOnly && (
        <Flex gap="small" wrap align="center">
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('identify.thresholds.classPlaceholder')}
            aria-label={t('identify.thresholds.class')}
            loading={classes.isPending}
            value={adding.classId}
            onChange={(classId) => setAdding((current) => ({ ...current, classId }))}
            options={classOptions}
            style={{ minWidth: 200 }}
            data-testid="threshold-add-class"
          />
          {percentInput(
            adding.percent,
            (percent) => setAdding((current) => ({ ...current, percent })),
            t('identify.thresholds.value'),
            'threshold-add-value',
          )}
          <Button icon={<PlusOutlined />} disabled={adding.classId === undefined} onClick={addRow} data-testid="threshold-add">
            {t('identify.thresholds.add')}
          </Button>
        </Flex>
      )}
      {!readOnly && (
        <Flex justify="end">
          <Button type="primary" loading={save.isPending} onClick={submit} data-testid="threshold-save">
            {t('common.save')}
          </Button>
        </Flex>
      )}
    </Flex>
  );
}
