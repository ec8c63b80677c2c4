import type { AlarmSeverity, AlarmState } from '@ipp/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** One colour per severity, heaviest the hottest, the same wherever an alarm or a rule shows (issue 40). */
export const SEVERITY_COLOR: Record<AlarmSeverity, string> = {
  critical: 'red',
  major: 'orange',
  minor: 'gold',
  warning: 'blue',
};

export function SeverityTag({ severity, testId }: { severity: AlarmSeverity; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={SEVERITY_COLOR[severity]} data-testid={testId} data-severity={severity}>
      {t(`alarms.severity.${severity}`)}
    </Tag>
  );
}

const STATE_COLOR: Record<AlarmState, string> = {
  pending: 'processing',
  active: 'error',
  acknowledged: 'warning',
  cleared: 'default',
};

/** An alarm's state, the same colours in the list and the drawer. */
export function StateTag({ state, testId }: { state: AlarmState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOR[state]} data-testid={testId}>
      {t(`alarms.state.${state}`)}
    </Tag>
  );
}
