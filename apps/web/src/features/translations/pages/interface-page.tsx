import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/hooks/use-session';
import { SelectIppNotice } from '../components/select-ipp-notice';
import { TranslationsTab } from '../components/translations-tab';

export function InterfacePage() {
  const { t } = useTranslation();
  const { role } = useSession();
  return (
    <Card title={t('route.gui')}>
      <Tabs
        items={[
          {
            key: 'translations',
            label: t('translations.tab'),
            // Translations apply to every team, so only a superadmin edits them (as the server enforces); others read and download.
            children: <TranslationsTab canEdit={role === 'superadmin'} />,
          },
          { key: 'select-ipp', label: t('translations.selectIppTab'), children: <SelectIppNotice /> },
        ]}
      />
    </Card>
  );
}
