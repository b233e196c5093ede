/**
 * A staff member abroad (issue 26): the browser in New York, its clock at 02:00 in Shanghai, when New
 * York is still on the day before. A link opened without a session survives the sign-in, and every
 * business date the console shows — the home page's today and weekday, the operation log's default
 * range, the daily transaction summary's — is China's.
 */
import { formatBusinessDate } from '@campus/contract';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS } from '../support/api';
import { CAPTCHA_CODE, launchBrowser, screenshot } from '../support/browser';
import { activeTab, formItem, openFromMenu, pane, waitForMenu } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Today in China, and 02:00 of it: New York (UTC-5) is then at 13:00 on the day before, whatever the hour the suite runs. */
const CHINA_TODAY = formatBusinessDate(new Date());
const BROWSER_NOW = new Date(`${CHINA_TODAY}T02:00:00+08:00`);
const WEEKDAYS = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];
const CHINA_WEEKDAY = WEEKDAYS[new Date(`${CHINA_TODAY}T00:00:00Z`).getUTCDay()]!;
/** A list link with its filters, as someone would paste it into a new browser tab. */
const LINK = '/schoolManage?schoolName=%E5%B9%BC%E5%84%BF%E5%9B%AD';

/** The values shown by the range picker in a scope, from and to. */
const rangeValues = (scope: Locator) => scope.locator('.ant-picker-range input').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

describe('a staff member abroad: links through sign-in, and China time everywhere', () => {
  const session = journey('china-time', () => browser, { timezoneId: 'America/New_York' });

  it('runs in a browser whose own day is not China\'s', async () => {
    const { page } = session();
    await page.clock.install({ time: BROWSER_NOW });
    await page.goto('/login');
    const browserDay = await page.evaluate(() => `${new Date().getFullYear()}-${String(new Date().getMonth() + 1).padStart(2, '0')}-${String(new Date().getDate()).padStart(2, '0')}`);
    expect(browserDay).not.toBe(CHINA_TODAY);
  });

  it('lands where a link pointed after signing in, with its filters', async () => {
    const { page } = session();
    await page.goto(LINK);
    await page.waitForURL('**/login?redirect=*');
    await page.getByTestId('captcha-image').locator('img[src^="data:image/"]').waitFor();
    await page.locator('#userName').fill(ACCOUNTS.admin.userName);
    await page.locator('#password').fill(ACCOUNTS.admin.password);
    await page.locator('#vcCode').fill(CAPTCHA_CODE);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`**${LINK}`);
    await waitForMenu(page);
    await expect.poll(() => activeTab(page)).toBe('schoolManage');
    await expect.poll(() => formItem(pane(page, 'schoolManage'), '学校名称').locator('input').inputValue()).toBe('幼儿园');
  });

  it("says today is China's day and weekday on the home page, and shows no school for a company account", async () => {
    const { page } = session();
    await page.locator('.tab-strip [data-tab-label="index"]').click();
    const today = pane(page, 'index').getByTestId('today');
    await expect.poll(() => today.textContent()).toContain(`${CHINA_TODAY} ${CHINA_WEEKDAY}`);
    expect(await pane(page, 'index').locator('.welcome-school').count()).toBe(0);
    await screenshot(page, 'china-time-home-new-york');
  });

  it("opens the operation log on a range ending today in China", async () => {
    const { page } = session();
    const log = await openFromMenu(page, 'maintenance', 'mainOperationLog');
    await expect.poll(async () => (await rangeValues(log))[1]?.slice(0, 10)).toBe(CHINA_TODAY);
    await screenshot(page, 'china-time-operation-log-new-york');
  });

  it("opens the daily transaction summary on a range ending today in China", async () => {
    const { page } = session();
    const summary = await openFromMenu(page, 'finance', 'transactionSummaryDay');
    await expect.poll(async () => (await rangeValues(summary))[1]?.slice(0, 10)).toBe(CHINA_TODAY);
    await screenshot(page, 'china-time-summary-new-york');
  });
});
