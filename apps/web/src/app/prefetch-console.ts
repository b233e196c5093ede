/**
 * The code a signed-in user waits for first — antd's provider, the shell, the home page and the
 * generic list page every first list is drawn with — fetched while the login form waits for its user,
 * so the sign-in click waits for data, not for ≈ 70 files of JavaScript (docs/performance.md, "After
 * the sign-in click"). The same dynamic imports as the routes', so the browser fetches each file once.
 */
const CONSOLE_CODE = [
  // The login form's own hash, which it loads at the click (it stays out of the form's first bytes).
  () => import('../lib/md5'),
  () => import('../components/antd-root'),
  () => import('./layout/shell-route'),
  () => import('../pages/index/index-page'),
  () => import('../resources/pages'),
] as const;

/** Whether the connection asks for fewer bytes (Save-Data, or a 2G link): then nothing is fetched ahead. */
function isDataSaving(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }).connection;
  return connection?.saveData === true || /2g/.test(connection?.effectiveType ?? '');
}

let isStarted = false;

/** Starts fetching the console's first code once the browser is idle; once per page load. */
export function prefetchConsoleCode(): void {
  if (isStarted || isDataSaving()) return;
  isStarted = true;
  const start = () => {
    // A failed fetch is left to the route that needs it: it asks again and shows its own error.
    for (const load of CONSOLE_CODE) load().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(start, { timeout: 2_000 });
  else window.setTimeout(start, 300);
}

/** For tests: the next call starts again. */
export function resetConsolePrefetch(): void {
  isStarted = false;
}
