import type { LoginResult } from '@ipp/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Flex } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { saveUserSettings } from '@/api/save-user-settings';
import { AlertOnDemand } from '@/components/alert-on-demand';
import { LanguageSwitch } from '@/components/language-switch';
import { useSiteBranding } from '@/hooks/use-site-branding';
import { takePickedBeforeSignIn } from '@/i18n';
import { DEFAULT_SETTINGS } from '@/lib/contract-constants';
import { safeRedirect } from '@/lib/redirect';
import { setSession } from '@/lib/session';
import { LoginForm } from '../components/login-form';
import type { SignedOutState } from '../hooks/use-sign-out';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const signedOut = location.state as SignedOutState | null;
  const { title, logo } = useSiteBranding();

  useEffect(() => {
    document.title = `${t('route.login')} · ${title}`;
  }, [t, title]);

  const signedIn = async (result: LoginResult) => {
    // Nothing cached for the previous user may show for the next one.
    queryClient.clear();
    setSession({ token: result.token, role: result.role, demo: result.demo });
    // A language picked here wins over the account's: saved to it before the console asks user-info (which would
    // switch to the account's language), so the console comes up in the language the user just chose. A failed save
    // has had its toast; the console then follows the account as before.
    const picked = takePickedBeforeSignIn();
    if (picked) await saveUserSettings(queryClient, { language: picked }).catch(() => undefined);
    await navigate(safeRedirect(params.get('redirect')), { replace: true });
  };
  const onSignedIn = (result: LoginResult) => void signedIn(result);

  return (
    <Flex vertical align="center" justify="center" gap="large" className="login-page">
      <Flex justify="flex-end" className="login-page__tools">
        <LanguageSwitch />
      </Flex>
      {/* Plain markup rather than Card/Typography keeps tabs, menus and editors out of the sign-in bundle. */}
      <main className="login-page__card">
        {logo && <img className="login-page__logo" src={logo} alt="" />}
        <h1 className="login-page__title">{title}</h1>
        <p className="login-page__tagline">{t('app.tagline')}</p>
        <h2 className="login-page__subtitle">{t('auth.title')}</h2>
        {signedOut?.reason === 'idle' && (
          <AlertOnDemand
            type="warning"
            showIcon
            title={t('auth.signedOutIdle', { minutes: signedOut.minutes ?? DEFAULT_SETTINGS.idle_minutes })}
            data-testid="signed-out-notice"
            style={{ marginBottom: 16 }}
          />
        )}
        <LoginForm onSignedIn={onSignedIn} />
      </main>
    </Flex>
  );
}
