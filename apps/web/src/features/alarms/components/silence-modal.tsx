import { DatePicker, Form, Input, Modal, Select, Switch, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { useAlarmRules } from '../api/alarm-rules';
import { useSaveSilence } from '../api/silences';
import { durationText } from './alarm-text';

/** How long a silence lasts, minutes: the choices an operator needs (a visit, a shift, a recovery, a week). */
const DURATIONS = [30, 60, 120, 240, 480, 1440, 3 * 1440, 7 * 1440];

interface SilenceFormValues {
  ipp_id: number | null;
  rule_id: number | null;
  later: boolean;
  starts_at?: Dayjs | null;
  minutes: number;
  reason: string;
}

/**
 * Silence the alarms of a station, a rule, both or the whole team for a while, now or later (a maintenance window),
 * with a reason; prefilled from an alarm when opened from one.
 */
export function SilenceModal({
  groupId,
  initial,
  onClose,
}: {
  groupId?: number;
  initial?: { ipp_id: number | null; rule_id: number | null };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SilenceFormValues>();
  const later = Form.useWatch('later', form) ?? false;
  const ipps = useIpps({ limit: ALL_IPPS_LIMIT, ...(groupId === undefined ? {} : { group_id: groupId }) });
  const rules = useAlarmRules(groupId);
  const save = useSaveSilence();
  const submit = (values: SilenceFormValues) => {
    const start = values.later && values.starts_at ? values.starts_at.valueOf() : Date.now();
    save.mutate(
      {
        ...(groupId === undefined ? {} : { group_id: groupId }),
        ipp_id: values.ipp_id,
        rule_id: values.rule_id,
        ...(values.later && values.starts_at ? { starts_at: start } : {}),
        ends_at: start + values.minutes * 60_000,
        reason: values.reason,
      },
      { onSuccess: onClose },
    );
  };
  return (
    <Modal
      open
      title={t('alarms.silence.new')}
      okText={t('alarms.silence.save')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'alarm-silence-submit' } as ButtonProps}
    >
      <Form<SilenceFormValues>
        form={form}
        layout="vertical"
        initialValues={{ ipp_id: null, rule_id: null, later: false, minutes: 60, reason: '', ...initial }}
        onFinish={submit}
        requiredMark
      >
        <Form.Item name="ipp_id" label={t('alarms.station')}>
          <Select
            loading={ipps.isLoading}
            data-testid="alarm-silence-station"
            options={[
              { value: null as unknown as number, label: t('alarms.allStations') },
              ...(ipps.data?.items ?? []).map((ipp) => ({ value: ipp.id, label: `${ipp.site_name} (${ipp.dev_id})` })),
            ]}
          />
        </Form.Item>
        <Form.Item name="rule_id" label={t('alarms.rule')}>
          <Select
            loading={rules.isLoading}
            data-testid="alarm-silence-rule"
            options={[
              { value: null as unknown as number, label: t('alarms.silence.allRules') },
              ...(rules.data ?? []).map((rule) => ({ value: rule.id, label: rule.name })),
            ]}
          />
        </Form.Item>
        <Form.Item name="later" label={t('alarms.silence.later')} valuePropName="checked" extra={t('alarms.silence.laterHint')}>
          <Switch data-testid="alarm-silence-later" />
        </Form.Item>
        {later && (
          <Form.Item
            name="starts_at"
            label={t('alarms.silence.from')}
            rules={[{ required: true, message: t('alarms.silence.fromRequired') }]}
          >
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              disabledDate={(d) => d.isBefore(dayjs().startOf('day')) || d.isAfter(dayjs().add(90, 'day'))}
              data-testid="alarm-silence-from"
            />
          </Form.Item>
        )}
        <Form.Item name="minutes" label={t('alarms.silence.duration')}>
          <Select
            data-testid="alarm-silence-duration"
            options={DURATIONS.map((m) => ({ value: m, label: durationText(t, m) }))}
          />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('alarms.silence.reason')}
          rules={[{ required: true, whitespace: true, message: t('alarms.silence.reasonRequired') }]}
        >
          <Input.TextArea
            maxLength={500}
            showCount
            rows={2}
            placeholder={t('alarms.silence.reasonPlaceholder')}
            data-testid="alarm-silence-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
