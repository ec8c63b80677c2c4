import { MutedOutlined } from '@ant-design/icons';
import type { Alarm } from '@ipp/contracts';
import { Flex, Tag, theme, Tooltip, Typography } from 'antd';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNow } from '@/hooks/use-now';
import { alarmPath } from '@/lib/alarm-path';
import { timeAgo } from '@/lib/time-ago';
import { formatTimeWithZone } from '@/lib/time-zones';
import { SeverityTag, StateTag } from './alarm-tags';
import { WrapText } from './wrap-text';

interface OpenAlarmListProps {
  alarms: readonly Alarm[];
  /** What the rule watches, in words, under its name. */
  detail?: (alarm: Alarm) => ReactNode;
  /**
   * A button beside the alarm (outside its link: one control inside another reaches no keyboard); `describedBy` is the
   * id of the link, which says which alarm the button acts on.
   */
  action?: (alarm: Alarm, describedBy: string) => ReactNode;
  /** Called when an alarm's link is followed (a drop-down closes). */
  onNavigate?: () => void;
  testId: string;
}

/**
 * Open alarms as a short list, in the order given: severity, station and rule (a link to the alarm on /alarms), how
 * long ago it raised, and whether it is silenced, pending or acknowledged.
 */
export function OpenAlarmList({ alarms, detail, action, onNavigate, testId }: OpenAlarmListProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const now = useNow();
  const linkId = useId();
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('alarms.latest.label')} data-testid={testId}>
      {alarms.map((alarm, index) => (
        <li
          key={alarm.id}
          data-testid={`${testId}-${alarm.id}`}
          style={{ padding: '8px 0', borderTop: index > 0 ? `1px solid ${token.colorSplit}` : undefined }}
        >
          <Flex gap="small" align="start">
            <SeverityTag severity={alarm.severity} />
            <Flex vertical style={{ flex: 1, minWidth: 0 }}>
              <Link
                id={`${linkId}-${alarm.id}`}
                to={alarmPath(alarm.id)}
                onClick={onNavigate}
                data-testid={`${testId}-link-${alarm.id}`}
              >
                {/* The site ID whole on one line: "(OPS-" over "0042)" reads as two stations. */}
                <WrapText>
                  {alarm.site_name && `${alarm.site_name} `}
                  <span style={{ whiteSpace: 'nowrap' }}>{alarm.site_name ? `(${alarm.dev_id})` : alarm.dev_id}</span>
                </WrapText>{' '}
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  <WrapText>{alarm.rule_name}</WrapText>
                </Typography.Text>
              </Link>
              {detail && (
                <Typography.Text type="secondary" style={{ fontSize: '0.85em' }}>
                  {detail(alarm)}
                </Typography.Text>
              )}
            </Flex>
            <Flex vertical align="end" gap={4} style={{ flexShrink: 0 }}>
              <Tooltip title={formatTimeWithZone(alarm.raised_at)}>
                <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                  <time dateTime={new Date(alarm.raised_at).toISOString()}>{timeAgo(t, alarm.raised_at, now)}</time>
                </Typography.Text>
              </Tooltip>
              {alarm.state !== 'active' && <StateTag state={alarm.state} />}
              {alarm.silenced && (
                <Tag icon={<MutedOutlined />} style={{ marginInlineEnd: 0 }} data-testid={`${testId}-silenced-${alarm.id}`}>
                  {t('alarms.silence.silenced')}
                </Tag>
              )}
              {action?.(alarm, `${linkId}-${alarm.id}`)}
            </Flex>
          </Flex>
        </li>
      ))}
    </ul>
  );
}
