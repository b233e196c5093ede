/**
 * A report page (issue 7): productStatistics draws its chart with ECharts and the table of product
 * models with a totals row, on the demo's devices.
 */
import type { Browser } from 'playwright-core';
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

describe('admin: the product statistics report', () => {
  const session = journey('product-statistics', () => browser);

  it('shows a chart and the models with a totals row', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const report = await openFromMenu(page, 'inventory', 'productStatistics');
    await waitForTable(report);
    // ECharts draws into a canvas inside the chart box once the summary has arrived.
    const canvas = report.getByTestId('report-chart').locator('canvas').first();
    await canvas.waitFor();
    // ECharts grows the bars for a moment: the picture is taken once two frames 100 ms apart agree.
    let lastFrame = '';
    await expect
      .poll(async () => {
        const frame = await canvas.evaluate((element) => (element as HTMLCanvasElement).toDataURL());
        const isSettled = frame === lastFrame;
        lastFrame = frame;
        return isSettled;
      })
      .toBe(true);
    await expect.poll(() => tableRows(report).count()).toBeGreaterThan(0);
    expect(await tableRows(report).allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('人脸识别闸机 G3')]));
    const totals = report.locator('.report-totals');
    await totals.waitFor();
    const cells = (await totals.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells[0]).toBe('合计');
    expect(cells.slice(1).every((text) => /^\d[\d,]*$/.test(text))).toBe(true);
    await screenshot(page, 'product-statistics-01');
  });
});
