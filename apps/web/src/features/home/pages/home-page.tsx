import { Alert, Button, Card, Descriptions, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUserInfo } from '@/api/get-user-info';

export function HomePage() {
  const { t } = useTranslation();
  const userInfo = useUserInfo();
  const user = userInfo.data;

  return (
    <Flex vertical gap="middle">
      <Card
        title={user ? t('home.welcome', { name: user.name || user.account }) : t('route.home')}
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
            column={1}
            items={[
              { key: 'account', label: t('home.account'), children: user.account },
              { key: 'role', label: t('home.role'), children: t(`role.${user.role}`) },
              { key: 'team', label: t('home.team'), children: user.group?.name ?? t('home.noTeam') },
            ]}
          />
        )}
      </Card>
      <Alert type="info" showIcon title={t('home.chartsPendingTitle')} description={t('home.chartsPending')} />
    </Flex>
  );
}
