import { BellOutlined } from '@ant-design/icons';
import { ALARM_SEVERITIES } from '@ipp/contracts';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlarmSummary } from '../api/get-alarms';
import { SEVERITY_COLOR } from './alarm-tags';

/**
 * The header's alarm count (active ones, in the colour of the heaviest; each severity and the acknowledged in the
 * hint), live through the event stream; opens /alarms.
 */
export default function AlarmBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const summary = useAlarmSummary();
  const active = summary.data?.active ?? 0;
  const acknowledged = summary.data?.acknowledged ?? 0;
  const counts = summary.data?.by_severity ?? { critical: 0, major: 0, minor: 0, warning: 0 };
  const heaviest = ALARM_SEVERITIES.find((s) => counts[s] > 0);
  const hint = t('alarms.bellHint', { active, acknowledged, ...counts });
  return (
    <Tooltip title={hint}>
      <Badge count={active} size="small" overflowCount={99} color={heaviest ? SEVERITY_COLOR[heaviest] : undefined}>
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={hint}
          onClick={() => void navigate('/alarms')}
          data-testid="alarm-bell"
          data-active={active}
          data-heaviest={heaviest ?? ''}
        />
      </Badge>
    </Tooltip>
  );
}
