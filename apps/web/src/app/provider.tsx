import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, useReducer, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useComponentSize } from '@/hooks/use-component-size';
import { useReducedMotion } from '@/hooks/use-reduced-motion';
import '@/i18n';
import { antdLocale, antdLocaleLoaded, loadAntdLocale } from './antd-locale';
import { THEME, THEME_NO_MOTION } from './theme';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Each failure already shows a toast; a silent automatic retry would show a second one.
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

const queryClient = createQueryClient();
// Toasts below the 64 px header, not over its bell and language switch (issue 37: "Save successful" covered the bell).
const MESSAGE_UNDER_HEADER = { top: 72 };

export function AppProvider({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  const { i18n } = useTranslation();
  const size = useComponentSize();
  const reducedMotion = useReducedMotion();
  // A switch to zh before its antd strings arrived: drawn again once they have.
  const [, localeArrived] = useReducer((n: number) => n + 1, 0);
  const lang = i18n.language;
  useEffect(() => {
    if (!antdLocaleLoaded(lang)) loadAntdLocale().then(localeArrived, () => undefined);
  }, [lang]);
  return (
    <QueryClientProvider client={client}>
      <ConfigProvider locale={antdLocale(lang)} componentSize={size} theme={reducedMotion ? THEME_NO_MOTION : THEME}>
        <AntApp message={MESSAGE_UNDER_HEADER}>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
