import type { Lang } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveUserSettings } from '@/api/save-user-settings';
import { getLanguage, notePickedBeforeSignIn, setLanguage } from '@/i18n';
import { LANGS } from '@/lib/contract-constants';
import { getSession } from '@/lib/session';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  const change = async (lang: Lang) => {
    try {
      // The other language's strings are downloaded on the first switch to it.
      await setLanguage(lang);
    } catch {
      void message.error({ content: t('api.badNetwork'), key: 'network' });
      return;
    }
    // Picked on the sign-in page, the choice goes to the account at the sign-in (login-page.tsx).
    if (!getSession().token) notePickedBeforeSignIn(lang);
    // The choice follows the account (POST /setting/save-user); a failure there has had its toast and the
    // language still changes here.
    await saveUserSettings(queryClient, { language: lang }).catch(() => undefined);
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
