/**
 * Refunds (issue 10): as admin, refund part of a parent's applied refund with the refund password;
 * the refund settles with the demo provider, the menu badge of applied refunds drops by one, and the
 * daily transaction summary (日交易汇总) of this month shows the refunded amount grown by exactly it.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, md5 } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, formItem, loginThroughForm, openFromMenu, pane, rowAction, tabMenu, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
const REFUND_PASSWORD = 'Refund@2026';
/** The part refunded, in yuan as typed (a demo payment is at least a month of service). */
const REFUND_YUAN = 1.5;

beforeAll(async () => {
  browser = await launchBrowser();
  // The operator's refund password, set as the personal page sets it: the login password and an SMS
  // code, read from the SMS outbox (the demo sends no real texts).
  const token = await apiLogin('admin');
  await call('/api/User/SendSmsCode', { method: 'POST', body: JSON.stringify({ purpose: 'refundPassword' }) }, token);
  const outbox = await call<{ items: { phone: string; content: string }[] }>('/api/SmsOutbox/Search?view=smsOutbox', { method: 'POST', body: JSON.stringify({ pageSize: 20 }) }, token);
  const code = /验证码 (\d+)/.exec(outbox.items.find((item) => item.phone === '13800000001')?.content ?? '')?.[1];
  if (!code) throw new Error('no verification code for admin in the SMS outbox');
  await call('/api/User/UpdateRefundPassword', { method: 'POST', body: JSON.stringify({ loginPassword: md5('Admin@123'), refundPassword: md5(REFUND_PASSWORD), smsCode: code }) }, token);
});
afterAll(async () => {
  await browser?.close();
});

const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/** The count on the refundManage entry of the Finance menu (0 when no badge). */
async function refundBadge(page: Page): Promise<number> {
  const badge = page.locator('.frame-column [data-frame="refundManage"] .ant-scroll-number');
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.first().getAttribute('title')) ?? (await badge.first().textContent()));
}

/** The summary's totals row: the refunded amount in fen (measures: payments, paid, refunds, refunded, …). */
async function refundedTotal(summary: Locator): Promise<number> {
  const cells = await summary.locator('.report-totals td').allInnerTexts();
  return Math.round(Number(cells[4]!.replace(/[^\d.-]/g, '')) * 100);
}

describe('admin: a partial refund with the refund password', () => {
  const session = journey('refunds-admin', () => browser);
  let summary: Locator;
  let refundedBefore = 0;

  it("reads this month's refunded total on the daily summary", async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    summary = await openFromMenu(page, 'finance', 'transactionSummaryDay');
    await waitForTable(summary);
    await summary.locator('.report-totals').waitFor();
    refundedBefore = await refundedTotal(summary);
    expect(refundedBefore).toBeGreaterThan(0); // the demo's settled refunds of today
  });

  it('refunds part of an applied refund: it settles and the badge drops by one', async () => {
    const { page } = session();
    const refunds = await openFromMenu(page, 'finance', 'refundManage');
    await waitForTable(refunds);
    await expect.poll(() => refundBadge(page)).toBeGreaterThan(0);
    const before = await refundBadge(page);
    const applied = tableRows(refunds).filter({ has: page.locator('.ant-tag', { hasText: '已申请' }) });
    await applied.first().waitFor();
    // The row by its id: its state and buttons are drawn again as it moves on.
    const row = refunds.locator(`tr[data-row-key="${await applied.first().getAttribute('data-row-key')}"]`);
    await rowAction(row, '退款');
    const form = modal(page, '退款');
    await form.waitFor();
    await formItem(form, '退款金额').locator('input').fill(String(REFUND_YUAN));
    await formItem(form, '退款密码').locator('input').fill(REFUND_PASSWORD);
    await screenshot(page, 'refunds-01-refund');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '退款已完成').waitFor();
    // The demo provider settles at once; the list shows it when it is drawn again.
    await expect
      .poll(async () => {
        await tabMenu(page, 'refundManage', '刷新');
        return row.locator('.ant-tag').allInnerTexts();
      })
      .toContain('退款成功');
    expect((await row.locator('td').allInnerTexts()).some((text) => text.includes(REFUND_YUAN.toFixed(2)))).toBe(true);
    await expect.poll(() => refundBadge(page)).toBe(before - 1);
    await screenshot(page, 'refunds-02-settled');
  });

  it("shows the refund in today's daily summary", async () => {
    const { page } = session();
    await page.locator('.tab-strip .ant-tabs-tab').filter({ has: page.locator('[data-tab-label="transactionSummaryDay"]') }).click();
    await pane(page, 'transactionSummaryDay').waitFor({ state: 'visible' });
    await expect
      .poll(async () => {
        await tabMenu(page, 'transactionSummaryDay', '刷新');
        await summary.locator('.report-totals').waitFor();
        return refundedTotal(summary);
      })
      .toBe(refundedBefore + Math.round(REFUND_YUAN * 100));
    // Newest day first: one of today's rows (Shanghai) is the refunded school's, with exactly the refund.
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const todays = (await tableRows(summary).allInnerTexts()).filter((text) => text.startsWith(today)).map((text) => text.split('\t').map((cell) => cell.trim()));
    expect(todays.some((cells) => cells.includes(REFUND_YUAN.toFixed(2)))).toBe(true);
    await screenshot(page, 'refunds-03-summary');
  });
});
