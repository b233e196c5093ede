/**
 * App use (issue 31): a parent's app reports its session and the functions it used through the
 * channel, the console's app-use log lists them at once, and the six app-use statistics draw their
 * charts and tables from the rollups of the demo parents' use; an agent's userStatistics lists only
 * its own schools. Each page is captured at 1920×1080 and 1366×768.
 */
import { APP_PATHS, IDEMPOTENCY_KEY_HEADER } from '@campus/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, giveParentAppPassword, md5, searchRows, searchSchools } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { loginThroughForm, openFromMenu, tableRows, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const APP_PASSWORD = 'Parent@2026';
const PAGES = ['uaStatistics', 'userActTable', 'userStyleStatistics', 'funStatistics', 'functionalTrends', 'userStatistics'];

/** The chart has drawn: its canvas is there and two frames 100 ms apart agree (ECharts animates in). */
async function chartSettled(report: Locator): Promise<void> {
  const canvas = report.getByTestId('report-chart').locator('canvas').first();
  await canvas.waitFor();
  let lastFrame = '';
  await expect
    .poll(async () => {
      const frame = await canvas.evaluate((element) => (element as HTMLCanvasElement).toDataURL());
      const isSettled = frame === lastFrame;
      lastFrame = frame;
      return isSettled;
    })
    .toBe(true);
}

/** Captures the page at both sizes the dashboards are designed for. */
async function captureBothSizes(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1920, 1080],
    [1366, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await screenshot(page, `${name}-${width}`);
  }
}

describe('a parent reports app use; the console shows it', () => {
  const session = journey('app-use', () => browser);
  const code = `e2e${Date.now() % 100_000}`;

  it('reports a session and a function through the app channel', async () => {
    const admin = await apiLogin('admin');
    const row = (await searchRows<{ id: number; version: number; phoneNum: string; studentIds: number[] }>(admin, 'Parent', 'parentUser', { pageSize: 50 })).items.find((candidate) => candidate.studentIds.length > 0)!;
    await giveParentAppPassword(admin, row.id, APP_PASSWORD);
    const { token } = await call<{ token: string }>(APP_PATHS.signIn, { method: 'POST', body: JSON.stringify({ phoneNum: row.phoneNum, password: md5(APP_PASSWORD) }) });
    const now = Date.now();
    const events = [
      { kind: 'session', at: new Date(now - 60_000).toISOString(), os: 'ios', osVersion: '17.5', appType: 'parent', appVersion: '3.2.0', deviceModel: 'iPhone 15' },
      { kind: 'function', at: new Date(now - 30_000).toISOString(), code },
    ];
    const answer = await call<{ accepted: number }>(APP_PATHS.reportUse, { method: 'POST', headers: { [IDEMPOTENCY_KEY_HEADER]: `e2e-use-${now}` }, body: JSON.stringify({ events }) }, token);
    expect(answer.accepted).toBe(2);
  });

  it('lists the reported function in the app-use log', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const log = await openFromMenu(page, 'operations', 'appUseLog');
    await waitForTable(log);
    await expect.poll(async () => (await tableRows(log).allInnerTexts()).some((text) => text.includes(code))).toBe(true);
    await screenshot(page, 'app-use-log');
  });

  it.each(PAGES)('draws %s with its chart, table and totals from the rollups', async (index) => {
    const { page } = session();
    await page.setViewportSize({ width: 1440, height: 900 });
    const report = await openFromMenu(page, 'operations', index);
    await waitForTable(report);
    await chartSettled(report);
    await expect.poll(() => tableRows(report).count()).toBeGreaterThan(0);
    const totals = report.locator('.report-totals');
    await totals.waitFor();
    const cells = (await totals.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells[0]).toBe('合计');
    // Every measure of the totals row is a count, and the first is not zero.
    const figures = cells.slice(1).filter((text) => /^\d[\d,]*$/.test(text));
    expect(figures.length).toBeGreaterThan(0);
    expect(Number(figures[0]!.replace(/,/g, ''))).toBeGreaterThan(0);
    await captureBothSizes(page, `app-use-${index}`);
  });
});

describe("an agent's app-use statistics cover only its schools", () => {
  const session = journey('app-use-agent', () => browser);

  it('lists only agent1\'s schools on userStatistics', async () => {
    const token = await apiLogin('agent1');
    const own = new Set((await searchSchools(token)).items.map((school) => school.schoolName));
    const { page } = session();
    await loginThroughForm(page, 'agent1');
    const report = await openFromMenu(page, 'operations', 'userStatistics');
    await waitForTable(report);
    await expect.poll(() => tableRows(report).count()).toBeGreaterThan(0);
    const texts = await tableRows(report).allInnerTexts();
    expect(texts.every((text) => [...own].some((name) => text.includes(name)))).toBe(true);
    await screenshot(page, 'app-use-userStatistics-agent1');
  });
});
