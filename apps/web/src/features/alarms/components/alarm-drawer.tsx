import type { Alarm } from '@ipp/contracts';
import { Button, Descriptions, Drawer, Empty, Flex, Input, List, Modal, Spin, Tag, Typography, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SeverityTag, StateTag } from '@/components/alarm-tags';
import { LoadFailed } from '@/components/load-failed';
import { TimeText } from '@/components/time-text';
import { useSession } from '@/hooks/use-session';
import { useAddAlarmComment, useAlarmComments, useClearAlarm } from '../api/alarm-thread';
import { ruleText, valueText } from './alarm-text';
import { SilenceModal } from './silence-modal';

/** Clear an open alarm by hand (administrators): the reason is required, and shown to everyone after. */
function ClearModal({ alarm, onClose }: { alarm: Alarm; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const clear = useClearAlarm();
  return (
    <Modal
      open
      title={t('alarms.clearTitle', { station: alarm.site_name || alarm.dev_id })}
      okText={t('alarms.clear')}
      okButtonProps={{ danger: true, disabled: reason.trim() === '', 'data-testid': 'alarm-clear-submit' } as ButtonProps}
      onOk={() => clear.mutate({ id: alarm.id, reason }, { onSuccess: onClose })}
      confirmLoading={clear.isPending}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">{t('alarms.clearHint')}</Typography.Paragraph>
      <Input.TextArea
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={500}
        showCount
        rows={3}
        placeholder={t('alarms.clearReasonPlaceholder')}
        aria-label={t('alarms.clearReason')}
        data-testid="alarm-clear-reason"
      />
    </Modal>
  );
}

/** The thread of what the team did about an alarm: oldest first, anyone of the team adds to it. */
function CommentThread({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation();
  const comments = useAlarmComments(alarmId);
  const add = useAddAlarmComment();
  const [text, setText] = useState('');
  const submit = () => text.trim() !== '' && add.mutate({ id: alarmId, text }, { onSuccess: () => setText('') });
  if (comments.isError) return <LoadFailed error={comments.error} onRetry={() => void comments.refetch()} />;
  return (
    <Flex vertical gap="small">
      {comments.isPending ? (
        <Spin />
      ) : comments.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.noComments')} />
      ) : (
        <List
          size="small"
          dataSource={comments.data}
          data-testid="alarm-comments"
          renderItem={(c) => (
            <List.Item key={c.id}>
              <Flex vertical style={{ width: '100%' }}>
                <Flex justify="space-between" gap="small" wrap>
                  <Typography.Text strong>{c.user_name}</Typography.Text>
                  <TimeText at={c.created_at} />
                </Flex>
                <Typography.Paragraph style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>{c.text}</Typography.Paragraph>
              </Flex>
            </List.Item>
          )}
        />
      )}
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={(e) => {
          if (e.ctrlKey || e.metaKey) submit();
        }}
        maxLength={1000}
        rows={3}
        placeholder={t('alarms.commentPlaceholder')}
        aria-label={t('alarms.comment')}
        data-testid="alarm-comment-text"
      />
      <Flex justify="end">
        <Button
          type="primary"
          onClick={submit}
          loading={add.isPending}
          disabled={text.trim() === ''}
          data-testid="alarm-comment-add"
        >
          {t('alarms.addComment')}
        </Button>
      </Flex>
    </Flex>
  );
}

/**
 * One alarm in full (issue 40): what raised it and when, who acknowledged or cleared it and why, and its comment
 * thread; administrators clear an open one by hand from here.
 */
export function AlarmDrawer({ alarm, canClear, onClose }: { alarm: Alarm; canClear: boolean; onClose: () => void }) {
  // The superadmin acts in the alarm's team; the others in their own.
  const { role } = useSession();
  const groupId = role === 'superadmin' ? alarm.group_id : undefined;
  const { t } = useTranslation();
  const [clearing, setClearing] = useState(false);
  const [silencing, setSilencing] = useState(false);
  const open = alarm.state === 'active' || alarm.state === 'acknowledged';
  return (
    <Drawer
      open
      size={520}
      onClose={onClose}
      title={`${alarm.rule_name} · ${alarm.site_name || alarm.dev_id}`}
      data-testid="alarm-drawer"
      extra={
        <Flex gap="small">
          {alarm.state !== 'cleared' && (
            <Button onClick={() => setSilencing(true)} data-testid="alarm-silence-this">
              {t('alarms.silence.this')}
            </Button>
          )}
          {canClear && open && (
            <Button danger onClick={() => setClearing(true)} data-testid="alarm-clear">
              {t('alarms.clear')}
            </Button>
          )}
        </Flex>
      }
    >
      <Flex vertical gap="large">
        <Descriptions
          column={1}
          size="small"
          bordered
          items={[
            { key: 'severity', label: t('alarms.severity.label'), children: <SeverityTag severity={alarm.severity} /> },
            {
              key: 'state',
              label: t('alarms.stateLabel'),
              children: (
                <>
                  <StateTag state={alarm.state} />
                  {alarm.silenced && <Tag>{t('alarms.silence.silenced')}</Tag>}
                </>
              ),
            },
            { key: 'station', label: t('alarms.station'), children: `${alarm.site_name} (${alarm.dev_id})` },
            { key: 'rule', label: t('alarms.condition.label'), children: ruleText(t, alarm) },
            { key: 'value', label: t('alarms.value'), children: valueText(t, alarm) },
            {
              key: 'raised',
              label: t('alarms.raisedAt'),
              children: <TimeText at={alarm.raised_at} stationZone={alarm.time_zone} testId="alarm-drawer-raised" />,
            },
            ...(alarm.acknowledged_at
              ? [
                  {
                    key: 'ack',
                    label: t('alarms.acknowledgedBy'),
                    children: (
                      <Flex vertical>
                        <span>
                          {alarm.acknowledged_by_name ?? '—'} ·{' '}
                          <TimeText at={alarm.acknowledged_at} stationZone={alarm.time_zone} />
                        </span>
                        {alarm.ack_note && <Typography.Text type="secondary">{alarm.ack_note}</Typography.Text>}
                      </Flex>
                    ),
                  },
                ]
              : []),
            ...(alarm.escalated_at
              ? [
                  {
                    key: 'escalated',
                    label: t('alarms.escalatedAt'),
                    children: (
                      <span data-testid="alarm-escalated-at">
                        <TimeText at={alarm.escalated_at} stationZone={alarm.time_zone} />
                      </span>
                    ),
                  },
                ]
              : []),
            ...(alarm.cleared_at
              ? [
                  {
                    key: 'cleared',
                    label: t('alarms.clearedAt'),
                    children: (
                      <Flex vertical>
                        <span>
                          <TimeText at={alarm.cleared_at} stationZone={alarm.time_zone} />
                          {alarm.cleared_by_name && ` · ${t('alarms.clearedBy', { name: alarm.cleared_by_name })}`}
                        </span>
                        {alarm.clear_reason && (
                          <Typography.Text type="secondary" data-testid="alarm-clear-reason-shown">
                            {alarm.clear_reason}
                          </Typography.Text>
                        )}
                      </Flex>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <Flex vertical gap="small">
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('alarms.comments')}
          </Typography.Title>
          <CommentThread alarmId={alarm.id} />
        </Flex>
      </Flex>
      {silencing && (
        <SilenceModal
          groupId={groupId}
          initial={{ ipp_id: alarm.ipp_id, rule_id: alarm.rule_id }}
          onClose={() => setSilencing(false)}
        />
      )}
      {clearing && (
        <ClearModal
          alarm={alarm}
          onClose={() => {
            setClearing(false);
            onClose();
          }}
        />
      )}
    </Drawer>
  );
}
