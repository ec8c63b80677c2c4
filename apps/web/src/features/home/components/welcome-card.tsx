import { Button, Card, Descriptions, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '@/api/get-user-info';

/** Who is signed in: name, role and team. */
export function WelcomeCard({ extra }: { extra?: ReactNode }) {
  const { t } = useTranslation();
  const userInfo = useUserInfo();
  const user = userInfo.data;
  return (
    <Card
      size="small"
      title={user ? t('home.welcome', { name: user.name || user.account }) : t('route.home')}
      extra={extra}
      loading={userInfo.isPending}
      data-testid="welcome-card"
    >
      {userInfo.isError && (
        <Result
          status="warning"
          title={t('home.userInfoFailed')}
          subTitle={userInfo.error.message}
          extra={<Button onClick={() => void userInfo.refetch()}>{t('common.retry')}</Button>}
        />
      )}
      {user && (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 3 }}
          items={[
            { key: 'account', label: t('home.account'), children: user.account },
            { key: 'role', label: t('home.role'), children: t(`role.${user.role}`) },
            { key: 'team', label: t('home.team'), children: user.group?.name ?? t('home.noTeam') },
          ]}
        />
      )}
    </Card>
  );
}
