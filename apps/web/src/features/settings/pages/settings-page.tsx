import { Card, Col, Flex, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/get-settings';
import { LoadFailed } from '@/components/load-failed';
import { useSession } from '@/hooks/use-session';
import { LogoUpload } from '../components/logo-upload';
import { SettingsForm } from '../components/settings-form';
import { SystemInfoCard } from '../components/system-info-card';

export function SettingsPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  // Only a superadmin changes settings; an administrator may look.
  const isSuperadmin = role === 'superadmin';
  const settings = useSettings();

  if (settings.isError) return <LoadFailed error={settings.error} onRetry={() => void settings.refetch()} />;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={15}>
        <Card title={t('route.systemConfig')} loading={settings.isPending}>
          {settings.data && <SettingsForm settings={settings.data} readOnly={!isSuperadmin} />}
        </Card>
      </Col>
      <Col xs={24} xl={9}>
        <Flex vertical gap="middle">
          <Card title={t('settings.logo')} loading={settings.isPending}>
            {settings.data && <LogoUpload logo={settings.data.logo} readOnly={!isSuperadmin} />}
          </Card>
          {isSuperadmin && <SystemInfoCard />}
        </Flex>
      </Col>
    </Row>
  );
}
