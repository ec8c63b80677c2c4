import type { Alarm } from '@ipp/contracts';
import { Input, Modal, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAcknowledgeAlarm } from '../api/acknowledge-alarm';
import { ruleText } from './alarm-text';

/** Acknowledge an alarm with a note for the others ("diver sent", "ignore: maintenance"). */
export function AcknowledgeModal({ alarm, onClose }: { alarm: Alarm; onClose: () => void }) {
  const { t } = useTranslation();
  const [note, setNote] = useState('');
  const acknowledge = useAcknowledgeAlarm();
  return (
    <Modal
      open
      title={t('alarms.acknowledgeTitle', { station: alarm.site_name || alarm.dev_id })}
      okText={t('alarms.acknowledge')}
      onOk={() => acknowledge.mutate({ id: alarm.id, note }, { onSuccess: onClose })}
      confirmLoading={acknowledge.isPending}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'alarm-ack-submit' } as ButtonProps}
    >
      <Typography.Paragraph>
        {alarm.rule_name}: {ruleText(t, alarm)}
      </Typography.Paragraph>
      <Input.TextArea
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={500}
        showCount
        rows={3}
        placeholder={t('alarms.notePlaceholder')}
        aria-label={t('alarms.note')}
        data-testid="alarm-ack-note"
      />
    </Modal>
  );
}
