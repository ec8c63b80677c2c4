import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n, i18nReady } from '@/i18n';
import { loadAntdLocale } from './antd-locale';
import { App } from './app';
import './global.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

const render = () =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

// The first render waits for the language's strings, so no untranslated key flashes; if they cannot be loaded even
// after retries, the console still renders (its lazy pages show the load failure and a retry).
// antd's Chinese strings load beside them (zh is the default language); in zh the first render waits for them too.
const antdZh = loadAntdLocale().catch(() => undefined);
i18nReady.then(() => (i18n.language === 'zh' ? antdZh : undefined)).then(render, render);
