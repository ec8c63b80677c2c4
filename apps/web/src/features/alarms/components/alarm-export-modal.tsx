import { MAX_ALARM_EXPORT_DAYS, type AlarmExportQuery } from '@ipp/contracts';
import { App, DatePicker, Form, Modal, Select, Typography, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/api/api-error';
import { ALL_IPPS_LIMIT, useIpps } from '@/api/get-ipps';
import { ALL_TEAMS, useTeams } from '@/api/get-teams';
import { VisuallyHidden } from '@/components/visually-hidden';
import { useSession } from '@/hooks/use-session';
import { downloadBlob } from '@/lib/download';
import { stationName } from '@/lib/station-name';
import { exportAlarms } from '../api/export-alarms';

interface ExportFormValues {
  period: [Dayjs, Dayjs] | null;
  ipp_id: number | null;
  group_id?: number;
}

/** The default period: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

/** Whole days from the first day's start to the end of the last: what the server's [from, to) covers. */
function periodQuery([start, end]: [Dayjs, Dayjs]): Pick<AlarmExportQuery, 'from' | 'to'> {
  return { from: start.startOf('day').valueOf(), to: end.add(1, 'day').startOf('day').valueOf() };
}

const daysOf = ([start, end]: [Dayjs, Dayjs]) => end.startOf('day').diff(start.startOf('day'), 'day') + 1;

/** The period's boxes as the form names them (antd: "<form>_<field>"), the first day's tied to the field's label. */
const PERIOD_ID = 'alarm-export_period';

/** Where a refusal of the server belongs on the form. */
const FIELD_OF: Record<string, keyof ExportFormValues> = { from: 'period', to: 'period', ipp_id: 'ipp_id', group_id: 'group_id' };

/**
 * Download the team's alarm history of a period (at most MAX_ALARM_EXPORT_DAYS days) as CSV, of every station or one;
 * the superadmin picks the team.
 */
export function AlarmExportModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { role } = useSession();
  const superadmin = role === 'superadmin';
  const [form] = Form.useForm<ExportFormValues>();
  const teams = useTeams(ALL_TEAMS, { enabled: superadmin });
  const groupId = Form.useWatch('group_id', form);
  const ipps = useIpps(
    { limit: ALL_IPPS_LIMIT, ...(superadmin && groupId !== undefined ? { group_id: groupId } : {}) },
    { enabled: !superadmin || groupId !== undefined },
  );
  const [busy, setBusy] = useState(false);
  const download = useRef<AbortController | null>(null);

  const firstTeam = teams.data?.items[0]?.id;
  useEffect(() => {
    if (superadmin && firstTeam !== undefined && form.getFieldValue('group_id') === undefined)
      form.setFieldValue('group_id', firstTeam);
  }, [superadmin, firstTeam, form]);

  const submit = async (values: ExportFormValues) => {
    if (!values.period) return;
    const query: AlarmExportQuery = {
      ...periodQuery(values.period),
      ...(values.ipp_id === null ? {} : { ipp_id: values.ipp_id }),
      ...(superadmin && values.group_id !== undefined ? { group_id: values.group_id } : {}),
    };
    const abort = new AbortController();
    download.current = abort;
    setBusy(true);
    try {
      const file = await exportAlarms(query, { signal: abort.signal });
      const [start, end] = values.period;
      downloadBlob(file.filename ?? `alarms-${start.format('YYYYMMDD')}-${end.format('YYYYMMDD')}.csv`, file.blob);
      void message.success(t('alarms.export.done'));
      onClose();
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') return;
      const field = isApiError(error) && error.field ? FIELD_OF[error.field] : undefined;
      const text = error instanceof Error ? error.message : String(error);
      if (field) form.setFields([{ name: field, errors: [text] }]);
      else void message.error(text);
    } finally {
      download.current = null;
      setBusy(false);
    }
  };

  const today = dayjs().startOf('day');
  return (
    <Modal
      open
      title={t('alarms.export.title')}
      okText={t('alarms.export.download')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={() => {
        download.current?.abort();
        onClose();
      }}
      okButtonProps={{ 'data-testid': 'alarm-export-submit' } as ButtonProps}
    >
      <Typography.Paragraph type="secondary">{t('alarms.export.hint')}</Typography.Paragraph>
      <Form<ExportFormValues>
        form={form}
        layout="vertical"
        initialValues={{ period: [today.subtract(DEFAULT_DAYS - 1, 'day'), today], ipp_id: null }}
        name="alarm-export"
        onFinish={(values) => void submit(values)}
        requiredMark
      >
        {superadmin && (
          <Form.Item
            name="group_id"
            label={t('alarms.team')}
            rules={[{ required: true, message: t('alarms.export.teamRequired') }]}
          >
            <Select<number>
              loading={teams.isLoading}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={() => form.setFieldValue('ipp_id', null)}
              options={(teams.data?.items ?? []).map((team) => ({ value: team.id, label: team.name }))}
              data-testid="alarm-export-team"
            />
          </Form.Item>
        )}
        <Form.Item
          name="period"
          label={t('alarms.export.period')}
          extra={t('alarms.export.periodHint', { days: MAX_ALARM_EXPORT_DAYS })}
          rules={[
            { required: true, message: t('alarms.export.periodRequired') },
            {
              validator: (_, value: ExportFormValues['period']) =>
                value && daysOf(value) > MAX_ALARM_EXPORT_DAYS
                  ? Promise.reject(new Error(t('alarms.export.periodTooLong', { days: MAX_ALARM_EXPORT_DAYS })))
                  : Promise.resolve(),
            },
          ]}
        >
          <DatePicker.RangePicker
            id={{ start: PERIOD_ID, end: `${PERIOD_ID}_end` }}
            style={{ width: '100%' }}
            disabledDate={(d) => d.isAfter(today, 'day')}
            data-testid="alarm-export-period"
          />
        </Form.Item>
        {/* The form's label names the first day's box; the last day's has its own, for screen readers. */}
        <label htmlFor={`${PERIOD_ID}_end`}>
          <VisuallyHidden>{t('alarms.export.periodEnd')}</VisuallyHidden>
        </label>
        <Form.Item name="ipp_id" label={t('alarms.station')}>
          <Select<number | null>
            loading={ipps.isLoading}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="alarm-export-station"
            options={[
              { value: null, label: t('alarms.allStations') },
              ...(ipps.data?.items ?? []).map((ipp) => ({ value: ipp.id, label: stationName(ipp) })),
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
