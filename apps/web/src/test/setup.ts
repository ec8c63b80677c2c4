import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { loadShellSchemas } from '@/api/parse-shell-data';
import { loadAntdLocale } from '@/app/antd-locale';
import { loadLanguage } from '@/i18n';

// Tests read both languages' strings (the console loads only the one in use). The shell's schemas load here too, so
// their first import (zod with them) does not count against a test's waiting time.
await Promise.all([loadLanguage('zh'), loadLanguage('en'), loadShellSchemas(), loadAntdLocale()]);

// findBy*/waitFor: a lazily loaded page behind a guard can take seconds on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs antd probes; these stand-ins only need to exist.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// antd measures scrollbars with a pseudo-element argument that jsdom does not implement.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
