import { App, Button } from 'antd';
import { useEffect } from 'react';
import { i18n } from '@/i18n';
import { currentEntryScript, fetchLatestEntryScript, isNewVersion, VERSION_CHECK_INTERVAL_MS } from './entry-script';

const NOTICE_KEY = 'new-version';
// Once per page load, even if the hook remounts or the user closed the notice.
let noticeShown = false;

/** Spec §4: poll the root page every 10 s and offer a reload once its entry bundle changes. */
export function useVersionCheck(): void {
  const { notification } = App.useApp();

  useEffect(() => {
    // The dev server has no hashed bundle to compare.
    if (import.meta.env.DEV) return;
    const current = currentEntryScript();
    if (current === null || noticeShown) return;

    let stopped = false;
    const timer = window.setInterval(() => {
      void fetchLatestEntryScript()
        .catch(() => null)
        .then((latest) => {
          if (stopped || noticeShown || !isNewVersion(current, latest)) return;
          stopped = true;
          noticeShown = true;
          window.clearInterval(timer);
          notification.info({
            key: NOTICE_KEY,
            title: i18n.t('version.title'),
            description: i18n.t('version.description'),
            duration: false,
            // Bottom: a notice that stays must not cover the header's controls.
            placement: 'bottomRight',
            props: { 'data-testid': 'version-notice' },
            actions: (
              <Button type="primary" size="small" data-testid="version-reload" onClick={() => window.location.reload()}>
                {i18n.t('version.reload')}
              </Button>
            ),
          });
        });
    }, VERSION_CHECK_INTERVAL_MS);

    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [notification]);
}
