import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSettingsInit } from '@/api/get-settings-init';
import { useSession } from '@/hooks/use-session';

const CONFIG_PATH = '/system/config';

/** Spec §2: the overview prompts to upload a logo while there is none (only a superadmin can upload one). */
export function LogoPrompt() {
  const { t } = useTranslation();
  const { role } = useSession();
  const site = useSettingsInit().data;
  if (role !== 'superadmin' || site?.logo !== '') return null;
  return (
    <Alert
      type="info"
      showIcon
      title={t('home.logoPrompt')}
      action={<Link to={CONFIG_PATH}>{t('home.logoPromptLink')}</Link>}
      data-testid="home-logo-prompt"
    />
  );
}
