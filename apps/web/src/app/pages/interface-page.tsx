import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupViewTab } from '@/features/group-view/components/group-view-tab';
import { TranslationsTab } from '@/features/translations/components/translations-tab';
import { useSession } from '@/hooks/use-session';

/** GUI management (spec §2 /manage/system): two features on one page, so the app layer composes them. */
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
          { key: 'select-ipp', label: t('groupView.tab'), children: <GroupViewTab /> },
        ]}
      />
    </Card>
  );
}
