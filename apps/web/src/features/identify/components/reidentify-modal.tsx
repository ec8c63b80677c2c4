import type { Ipp } from '@ipp/contracts';
import { App, Button, DatePicker, Flex, Form, Modal, Select, Typography, type ButtonProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { stationName } from '@/lib/station-name';
import { useClasses } from '@/api/get-classes';
import { classOption } from '../utils/class-name';
import { useReidentify } from '../api/reidentify';
import { DATE_TIME_FORMAT } from '../utils/list-query';
import { JobProgress } from './ai/job-progress';

interface Values {
  dev_id: string;
  range: [Dayjs, Dayjs] | null;
  class_id?: number;
}

interface ReidentifyModalProps {
  stations: readonly Pick<Ipp, 'id' | 'dev_id' | 'site_name'>[];
  initialStation: string;
  /** Minutes east of UTC: the range is the viewer's local time. */
  tz: number;
  onClose: () => void;
  /** The job was queued: the page follows it after this dialog closes. */
  onSubmitted?: (jobId: number) => void;
}

/**
 * Re-identification request (spec §3): a station, a time range (required) and optionally one AI class. Once
 * submitted, the dialog follows the job; closing it leaves the job running.
 */
export function ReidentifyModal({ stations, initialStation, tz, onClose, onSubmitted }: ReidentifyModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const classes = useClasses();
  const submit = useReidentify();
  const [submitted, setSubmitted] = useState<{ jobId: number; rois: number } | null>(null);

  const finish = ({ dev_id, range, class_id }: Values) => {
    if (!range) return;
    submit.mutate(
      { dev_id, Roi_time_s: range[0].format(DATE_TIME_FORMAT), Roi_time_e: range[1].format(DATE_TIME_FORMAT), class_id, tz },
      {
        onSuccess: (result) => {
          void message.success(t('identify.reidentify.submitted'));
          setSubmitted({ jobId: result.job_id, rois: result.rois });
          onSubmitted?.(result.job_id);
        },
      },
    );
  };

  if (submitted) {
    return (
      <Modal
        open
        title={t('identify.reidentify.title')}
        onCancel={onClose}
        footer={
          <Button onClick={onClose} data-testid="identify-reidentify-close">
            {t('identify.reidentify.close')}
          </Button>
        }
        destroyOnHidden
      >
        <Flex vertical gap="middle">
          <Typography.Text data-testid="identify-reidentify-rois">
            {t('identify.reidentify.queued', { count: submitted.rois })}
          </Typography.Text>
          <JobProgress jobId={submitted.jobId} testId="identify-reidentify-job" />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('identify.reidentify.closeHint')}
          </Typography.Text>
        </Flex>
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t('identify.reidentify.title')}
      okText={t('identify.reidentify.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: submit.isPending, 'data-testid': 'identify-reidentify-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ dev_id: initialStation, range: null }} onFinish={finish}>
        <Form.Item
          name="dev_id"
          label={t('monitor.station')}
          rules={[{ required: true, message: t('monitor.stationPlaceholder') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={stations.map((s) => ({ value: s.dev_id, label: stationName(s) }))}
            data-testid="identify-reidentify-station"
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('identify.reidentify.range')}
          rules={[{ required: true, message: t('identify.reidentify.selectDate') }]}
        >
          <DatePicker.RangePicker showTime style={{ width: '100%' }} data-testid="identify-reidentify-range" />
        </Form.Item>
        <Form.Item name="class_id" label={t('identify.reidentify.class')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('identify.reidentify.classAll')}
            loading={classes.isPending}
            options={(classes.data ?? []).map((c) => classOption(c, t))}
            data-testid="identify-reidentify-class"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
