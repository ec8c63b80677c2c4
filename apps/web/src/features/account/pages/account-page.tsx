import { Alert, Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/hooks/use-session';
import { ChangePasswordForm } from '../components/change-password-form';

export function AccountPage() {
  const { t } = useTranslation();
  const { demo } = useSession();
  return (
    <Card title={t('route.account')}>
      <Flex vertical gap="middle">
        <Alert type="info" showIcon title={t('account.otherSessions')} />
        {demo && <Alert type="warning" showIcon title={t('account.demoReadOnly')} />}
        <ChangePasswordForm />
      </Flex>
    </Card>
  );
}
