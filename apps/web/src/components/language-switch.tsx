import { LANGS, type Lang } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { getLanguage, setLanguage } from '@/i18n';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  const change = async (lang: Lang) => {
    await setLanguage(lang);
    // Server messages and translated data follow x-lang, so cached answers are refetched.
    await queryClient.invalidateQueries();
  };

  return (
    <Segmented<Lang>
      data-testid="language-switch"
      aria-label={t('lang.label')}
      value={getLanguage()}
      options={LANGS.map((lang) => ({ value: lang, label: t(`lang.${lang}`) }))}
      onChange={(lang) => void change(lang)}
    />
  );
}
