import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CAPTCHA_CODE = '1234';
export const ARTIFACTS_DIR = path.resolve(import.meta.dirname, '../artifacts');

/** How long one UI step may take; the first page of a context also loads the lazy chunks. */
export const STEP_TIMEOUT = 20_000;

/** Launches the system Chromium headless; never a downloaded browser. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function baseUrl(): string {
  return inject('baseUrl');
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions of the page: a journey that ends with any of them fails. */
  pageErrors: string[];
}

/** What a journey may change in its browser: a staff member abroad runs the console in another time zone. */
export interface SessionOptions {
  timezoneId?: string;
}

/**
 * A fresh context (empty session and local storage) with one page, at a laptop's window size, in
 * the product's locale and time zone (or the zone a journey asks for).
 */
export async function newSession(browser: Browser, options: SessionOptions = {}): Promise<Session> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    timezoneId: options.timezoneId ?? 'Asia/Shanghai',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  context.setDefaultNavigationTimeout(30_000);
  const pageErrors: string[] = [];
  // A Content-Security-Policy violation fails the journey like an uncaught exception: the console
  // must work under its CSP (no eval, no inline script), which a blocked call may break silently.
  await context.exposeFunction('__reportCspViolation', (text: string) => pageErrors.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
  return { context, page, pageErrors };
}

/** antd's motion classes while a dialog, drawer, dropdown or toast is still moving in or out. */
const MOVING = '[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"], [class*="-appear-start"], [class*="-enter-start"]';

/**
 * Saves a full-page screenshot under e2e/artifacts for a human to look at, once antd's open and
 * close motions have settled (a dialog caught mid-zoom is invisible in the picture).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page
    .waitForFunction((selector) => document.querySelector(selector) === null, MOVING, { timeout: 3_000, polling: 50 })
    .catch(() => undefined); // a looping animation must not fail the journey; the picture is for people
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}
