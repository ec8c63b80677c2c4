import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAlarmSummary } from '../api/get-alarms';

/** The header's alarm count (active ones; acknowledged in the hint), live through the event stream; opens /alarms. */
export default function AlarmBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const summary = useAlarmSummary();
  const active = summary.data?.active ?? 0;
  const acknowledged = summary.data?.acknowledged ?? 0;
  const hint = t('alarms.bellHint', { active, acknowledged });
  return (
    <Tooltip title={hint}>
      <Badge count={active} size="small" overflowCount={99}>
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={hint}
          onClick={() => void navigate('/alarms')}
          data-testid="alarm-bell"
          data-active={active}
        />
      </Badge>
    </Tooltip>
  );
}
