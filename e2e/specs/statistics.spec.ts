/**
 * The attendance and operations statistics (issue 31): schoolStatistics, stuMonthStatistic and
 * orderStatistics read the rollups the attendance job keeps from the demo's recognitions, the school
 * cockpit (jsc) shows one school's day, and DataCenter its four trends with their tables and exports.
 * Pictures at 1366×768 and 1920×1080.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, launchBrowser, screenshot } from '../support/browser';
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

  it('shows the four DataCenter trends with their rows, switches one to a pie, and exports its table', async () => {
    const { page } = session();
    const board = await openFromMenu(page, 'home', 'DataCenter');
    const panels = board.locator('.report-panel');
    await expect.poll(() => panels.count()).toBe(4);
    const payments = board.locator('[data-report="DataCenterPayments"]');
    await expect.poll(() => tableRows(payments).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // The recognitions wait for the attendance job (every 10 s from the server's start).
    const recognitions = board.locator('[data-report="DataCenterRecognitions"]');
    await expect
      .poll(
        async () => {
          await board.getByRole('button', { name: /查\s*询/ }).first().click();
          await waitForTable(recognitions);
          return tableRows(recognitions).count();
        },
        { timeout: 40_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    const totals = (await payments.locator('.report-totals td').allInnerTexts()).map((text) => text.trim());
    expect(totals[0]).toBe('合计');
    expect(totals.slice(1).every((text) => /^-?\d[\d,]*(\.\d{2})?$/.test(text))).toBe(true);
    await payments.getByTestId('report-chart').locator('canvas').first().waitFor();

    await payments.getByText('饼图').click();
    await expect.poll(async () => (await payments.locator('thead th').allInnerTexts()).map((text) => text.trim())).toContain('学校');
    // The days' rows leave with the switch; the schools' arrive with their answer.
    await expect.poll(() => tableRows(payments).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await tableRows(payments).first().locator('td').first().innerText()).not.toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await payments.getByRole('button', { name: /导\s*出/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^数据中心-收入与退款-\d{4}-\d{2}-\d{2}\.xlsx$/);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const file = path.join(ARTIFACTS_DIR, 'data-center-payments.xlsx');
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['学校', '支付笔数', '支付金额', '退款笔数', '退款金额', '净收入']);
    expect(typeof sheet.getRow(2).getCell(3).value).toBe('number');
    expect(sheet.getRow(sheet.actualRowCount).getCell(1).value).toBe('合计');
    await pictures(page, 'statistics-data-center');
  });

  it("shows a school's day on the cockpit (jsc)", async () => {
    const { page } = session();
    const cockpit = await openFromMenu(page, 'home', 'jsc');
    await cockpit.getByTestId('jsc-figures').waitFor();
    expect(await cockpit.getByTestId('jsc-figures').locator('.ant-statistic').count()).toBe(6);
    await pictures(page, 'statistics-cockpit');
  });
});
