import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useSystemInfo } from '../api/get-system-info';
import { TimeText } from '@/components/time-text';

export function SystemInfoCard() {
  const { t } = useTranslation();
  const info = useSystemInfo();
  return (
    <Card title={t('settings.systemInfo')} loading={info.isPending} data-testid="system-info">
      {info.isError && <LoadFailed error={info.error} onRetry={() => void info.refetch()} />}
      {info.data && (
        <Descriptions
          column={1}
          size="small"
          items={[
            { key: 'version', label: t('settings.version'), children: info.data.version },
            { key: 'node', label: t('settings.node'), children: info.data.node },
            { key: 'database', label: t('settings.database'), children: t(`settings.db_${info.data.database}`) },
            { key: 'started', label: t('settings.startedAt'), children: <TimeText at={info.data.started_at} /> },
            { key: 'teams', label: t('settings.teamCount'), children: info.data.teams },
            { key: 'users', label: t('settings.userCount'), children: info.data.users },
          ]}
        />
      )}
    </Card>
  );
}
