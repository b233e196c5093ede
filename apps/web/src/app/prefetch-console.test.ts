import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetched = vi.hoisted(() => [] as string[]);
vi.mock('../lib/md5', () => (fetched.push('md5'), {}));
vi.mock('../components/antd-root', () => (fetched.push('antd-root'), {}));
vi.mock('./layout/shell-route', () => (fetched.push('shell-route'), {}));
vi.mock('../pages/index/index-page', () => (fetched.push('index-page'), {}));
vi.mock('../resources/pages', () => (fetched.push('resource pages'), {}));

const { prefetchConsoleCode, resetConsolePrefetch } = await import('./prefetch-console');

describe('prefetchConsoleCode', () => {
  beforeEach(() => {
    fetched.length = 0;
    resetConsolePrefetch();
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('fetches the hash, the shell, the home page and the list page once the browser is idle, once per page load', async () => {
    prefetchConsoleCode();
    prefetchConsoleCode();
    expect(fetched).toEqual([]);
    await vi.runAllTimersAsync();
    await vi.waitFor(() => expect([...fetched].sort()).toEqual(['antd-root', 'index-page', 'md5', 'resource pages', 'shell-route']));
  });

  it('fetches nothing ahead on a connection that asks to save data', async () => {
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } });
    prefetchConsoleCode();
    await vi.runAllTimersAsync();
    expect(fetched).toEqual([]);
  });
});
