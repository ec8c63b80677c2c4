import { Alert, Button, Card, Descriptions, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettingsInit } from '@/api/get-settings-init';
import { useUserInfo } from '@/api/get-user-info';
import { useSession } from '@/hooks/use-session';

const CONFIG_PATH = '/system/config';

export function HomePage() {
  const { t } = useTranslation();
  const userInfo = useUserInfo();
  const user = userInfo.data;
  const { role } = useSession();
  const site = useSettingsInit().data;
  // Spec §2: the overview prompts a superadmin to upload a logo while there is none.
  const promptLogo = role === 'superadmin' && site?.logo === '';

  return (
    <Flex vertical gap="middle">
      {promptLogo && (
        <Alert
          type="info"
          showIcon
          title={t('home.logoPrompt')}
          action={<Link to={CONFIG_PATH}>{t('home.logoPromptLink')}</Link>}
          data-testid="logo-prompt"
        />
      )}
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
