import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { LOCALES, loadInitialLanguage, loadLanguage } from '../lib/i18n';
import { unstable_IdlePriority, unstable_scheduleCallback } from 'scheduler';

// antd's responsive helpers call matchMedia, which jsdom does not implement.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// antd's Table and overflow helpers observe sizes; jsdom has no layout, so nothing ever resizes.
if (typeof window.ResizeObserver === 'undefined') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

/**
 * Resolves once React's scheduler has run every task queued before it: an idle-priority task runs last.
 * Renders started by an awaited promise run outside act() in time slices; if the file's last test ends
 * mid-render and jsdom is torn down, the next slice finds no `window` and the run reports an error.
 */
function schedulerDrained(): Promise<void> {
  return new Promise((resolve) => unstable_scheduleCallback(unstable_IdlePriority, () => resolve()));
}

afterEach(async () => {
  cleanup();
  await schedulerDrained();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

// Both languages are loaded before any test, so setLocale switches at once as in a running console.
await loadInitialLanguage();
await Promise.all(LOCALES.map((locale) => loadLanguage(locale)));
