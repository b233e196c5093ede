/**
 * The attendance and operations statistics (issue 31): schoolStatistics, stuMonthStatistic and
 * orderStatistics read the rollups the attendance job keeps from the demo's recognitions, and the
 * school cockpit (jsc) shows one school's day. Pictures at 1366×768 and 1920×1080.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

async function pictures(page: Page, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await screenshot(page, `${name}-${size.width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The report's table has rows once the attendance job has run (every 10 s from the server's start). */
async function rowsOnceRolledUp(page: Page, report: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        await report.getByRole('button', { name: /查\s*询/ }).first().click();
        await waitForTable(report);
        return tableRows(report).count();
      },
      { timeout: 40_000, interval: 2_000 },
    )
    .toBeGreaterThan(0);
  await page.waitForTimeout(300);
}

describe('admin: attendance statistics and the school cockpit', () => {
  const session = journey('statistics', () => browser);

  it('shows schools per day with a totals row (schoolStatistics)', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const report = await openFromMenu(page, 'maintenance', 'schoolStatistics');
    await rowsOnceRolledUp(page, report);
    const totals = report.locator('.report-totals');
    await totals.waitFor();
    const cells = (await totals.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells[0]).toBe('合计');
    expect(cells.slice(1).every((text) => /^\d[\d,]*$/.test(text))).toBe(true);
    await report.getByTestId('report-chart').locator('canvas').first().waitFor();
    await pictures(page, 'statistics-school');
  });

  it('shows each student’s month (stuMonthStatistic)', async () => {
    const { page } = session();
    const report = await openFromMenu(page, 'maintenance', 'stuMonthStatistic');
    await rowsOnceRolledUp(page, report);
    await pictures(page, 'statistics-student-month');
  });

  it('shows device and mall orders (orderStatistics)', async () => {
    const { page } = session();
    const report = await openFromMenu(page, 'inventory', 'orderStatistics');
    await rowsOnceRolledUp(page, report);
    await pictures(page, 'statistics-orders');
  });

  it('shows the ops daily report per day and school (operationLog), in Chinese and English', async () => {
    const { page } = session();
    const report = await openFromMenu(page, 'maintenance', 'operationLog');
    await rowsOnceRolledUp(page, report);
    await report.getByTestId('report-chart').locator('canvas').first().waitFor();
    await pictures(page, 'statistics-ops-daily-zh');
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'en'));
    await page.reload();
    const english = page.locator('.report-page').first();
    await english.getByTestId('report-chart').locator('canvas').first().waitFor();
    await expect.poll(() => english.textContent()).toContain('Devices offline');
    await pictures(page, 'statistics-ops-daily-en');
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'zh-CN'));
    await page.reload();
    await page.locator('.report-page').first().waitFor();
  });

  it("shows a school's day on the cockpit (jsc)", async () => {
    const { page } = session();
    const cockpit = await openFromMenu(page, 'home', 'jsc');
    await cockpit.getByTestId('jsc-figures').waitFor();
    expect(await cockpit.getByTestId('jsc-figures').locator('.ant-statistic').count()).toBe(6);
    await pictures(page, 'statistics-cockpit');
  });
});
