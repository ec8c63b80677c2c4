import { ALARM_KINDS, ALARM_KIND_NEEDS, type AlarmKind, type AlarmRule } from '@ipp/contracts';
import { Form, Input, InputNumber, Modal, Select, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useSaveAlarmRule } from '../api/alarm-rules';

interface RuleFormValues {
  name: string;
  kind: AlarmKind;
  threshold?: number | null;
  minutes?: number | null;
  ipp_id: number | null;
  enabled: boolean;
  renotify_minutes: number;
}

const DEFAULTS: RuleFormValues = { name: '', kind: 'offline', minutes: 15, ipp_id: null, enabled: true, renotify_minutes: 60 };

/** A new alarm rule, or a change to one (a changed rule clears its open alarms and starts over). */
export function RuleFormModal({ rule, onClose }: { rule: AlarmRule | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const kind = Form.useWatch('kind', form) ?? rule?.kind ?? DEFAULTS.kind;
  const need = ALARM_KIND_NEEDS[kind];
  const ipps = useIpps({ limit: ALL_IPPS_LIMIT });
  const save = useSaveAlarmRule();

  const submit = (values: RuleFormValues) =>
    save.mutate(
      {
        ...(rule ? { id: rule.id } : {}),
        name: values.name,
        kind: values.kind,
        threshold: need === 'threshold' ? (values.threshold ?? null) : null,
        minutes: need === 'minutes' ? (values.minutes ?? null) : null,
        ipp_id: values.ipp_id,
        enabled: values.enabled,
        renotify_minutes: values.renotify_minutes,
      },
      { onSuccess: onClose },
    );

  return (
    <Modal
      open
      title={rule ? t('alarms.editRule') : t('alarms.addRule')}
      okText={t('common.save')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'alarm-rule-submit' } as ButtonProps}
    >
      <Form<RuleFormValues>
        form={form}
        layout="vertical"
        initialValues={rule ? { ...rule } : DEFAULTS}
        onFinish={submit}
        requiredMark
      >
        <Form.Item name="name" label={t('alarms.ruleName')} rules={[{ required: true, whitespace: true, max: 64 }]}>
          <Input maxLength={64} data-testid="alarm-rule-name" />
        </Form.Item>
        <Form.Item name="kind" label={t('alarms.kindLabel')} rules={[{ required: true }]}>
          <Select data-testid="alarm-rule-kind" options={ALARM_KINDS.map((k) => ({ value: k, label: t(`alarms.kind.${k}`) }))} />
        </Form.Item>
        {need === 'threshold' && (
          <Form.Item
            name="threshold"
            label={t(`alarms.thresholdLabel.${kind}`)}
            rules={[{ required: true, message: t('alarms.limitRequired') }]}
          >
            <InputNumber min={-1000} max={1_000_000} style={{ width: 200 }} data-testid="alarm-rule-threshold" />
          </Form.Item>
        )}
        {need === 'minutes' && (
          <Form.Item
            name="minutes"
            label={t('alarms.minutesLabel')}
            rules={[{ required: true, message: t('alarms.limitRequired') }]}
          >
            <InputNumber min={0} max={10_080} precision={0} style={{ width: 200 }} data-testid="alarm-rule-minutes" />
          </Form.Item>
        )}
        <Form.Item name="ipp_id" label={t('alarms.station')}>
          <Select
            loading={ipps.isLoading}
            options={[
              { value: null as unknown as number, label: t('alarms.allStations') },
              ...(ipps.data?.items ?? []).map((ipp) => ({ value: ipp.id, label: `${ipp.site_name} (${ipp.dev_id})` })),
            ]}
          />
        </Form.Item>
        <Form.Item name="renotify_minutes" label={t('alarms.renotifyLabel')} extra={t('alarms.renotifyHint')}>
          <InputNumber min={0} max={10_080} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('alarms.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
