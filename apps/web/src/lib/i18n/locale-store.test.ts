import { afterEach, describe, expect, it, vi } from 'vitest';

describe('language packs loaded on demand', () => {
  afterEach(() => vi.resetModules());

  it('keeps the current language until the chosen one has arrived, then switches texts and listeners together', async () => {
    // A fresh store: no pack loaded yet (the test setup preloads both into the shared one).
    vi.resetModules();
    const store = await import('./locale-store');
    const { translate } = await import('./translate');
    await store.loadInitialLanguage();
    expect(store.getLocale()).toBe('zh-CN');
    expect(store.antdLocaleOf('en')).toBeUndefined();
    const zhName = translate('app.name');

    const seen: string[] = [];
    store.subscribeLocale(() => seen.push(`${store.getLocale()}:${translate('app.name')}`));
    const switching = store.setLocale('en');
    // Not loaded yet: still Chinese, and never a message key.
    expect(store.getLocale()).toBe('zh-CN');
    expect(translate('app.name')).toBe(zhName);
    expect(translate('app.name', undefined, 'en')).toBe(zhName);

    await switching;
    expect(store.getLocale()).toBe('en');
    expect(translate('app.name')).toBe('Campus Ops Console');
    expect(seen).toEqual(['en:Campus Ops Console']);
    expect(store.antdLocaleOf('en')?.locale).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('lets the last choice win when an earlier one arrives later', async () => {
    vi.resetModules();
    const store = await import('./locale-store');
    await store.loadInitialLanguage();
    const toEnglish = store.setLocale('en');
    const backToChinese = store.setLocale('zh-CN');
    await Promise.all([toEnglish, backToChinese]);
    expect(store.getLocale()).toBe('zh-CN');
  });
});
