/**
 * Albums end to end (issue 30): the demo's photo collection of a class → "Make books" on the task →
 * the job renders each child's book → its preview in the console → a parent orders the printed album
 * through the app channel, after customising it there (a version, previewed on albumCustomized) → the
 * print house's production from send to close, one order at a time and a batch of orders together.
 */
import { ALBUM_APP_PATHS, APP_PATHS, IDEMPOTENCY_KEY_HEADER } from '@campus/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, giveParentAppPassword, md5, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, loginThroughForm, openFromMenu, rowAction, submitUntilSent, tableRows, tabMenu, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TASK = '2026秋季成长册';
const APP_PASSWORD = 'Parent@2026';

function asParent<T>(token: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  return call<T>(path, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }, token);
}

const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

describe('from a class’s photos to a closed print order', () => {
  const session = journey('albums', () => browser);
  let tasks: Locator;
  let orderNo: string;
  let parentToken: string;
  let bookId: number;
  let versionTitle: string;

  it('shows the task’s collection per child and makes the books', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    tasks = await openFromMenu(page, 'operations', 'albumTask');
    await waitForTable(tasks);
    const row = tableRows(tasks).filter({ hasText: TASK }).first();
    await rowAction(row, '收集进度');
    const progress = page.locator('.ant-drawer').filter({ hasText: '收集进度' });
    await progress.waitFor();
    await expect.poll(() => progress.locator('.ant-table-row').count()).toBeGreaterThan(0);
    await screenshot(page, 'albums-01-progress');
    await progress.locator('.ant-drawer-close').click();
    await rowAction(row, '自动成书');
    await page.locator('.ant-modal-confirm, .ant-popconfirm, .ant-modal').getByRole('button', { name: buttonText('确定') }).last().click();
    await toast(page, '自动成书').waitFor();
  });

  it('renders each child’s book in the background and previews it', async () => {
    const admin = await apiLogin('admin');
    const task = (await searchRows<{ id: number }>(admin, 'AlbumTask', 'albumTask', { name: TASK })).items[0]!;
    await expect
      .poll(async () => (await searchRows<{ state: number }>(admin, 'AlbumBook', 'automaticBook', { taskId: task.id, pageSize: 50 })).items.every((book) => book.state === 3), { timeout: 120_000, interval: 2_000 })
      .toBe(true);
    // A child with photos (the demo class has children without any, whose books are all empty slots).
    const withPhotos = (await searchRows<{ title: string; slotsFilled: number }>(admin, 'AlbumBook', 'automaticBook', { taskId: task.id, pageSize: 50 })).items.find((book) => book.slotsFilled > 0)!;
    const { page } = session();
    const books = await openFromMenu(page, 'operations', 'automaticBook');
    await waitForTable(books);
    const row = tableRows(books).filter({ hasText: withPhotos.title }).first();
    await rowAction(row, '预览');
    const preview = page.locator('.ant-drawer').filter({ hasText: '相册预览' });
    await preview.waitFor();
    await expect.poll(() => preview.locator('img').count()).toBeGreaterThan(0);
    await expect.poll(() => preview.locator('img').first().evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await preview.getByText('封面').count()).toBeGreaterThan(0);
    await screenshot(page, 'albums-02-preview');
    await preview.locator('.ant-drawer-close').click();
  });

  it('lets a parent order the printed album through the app channel at the configured price', async () => {
    const admin = await apiLogin('admin');
    const task = (await searchRows<{ id: number; schoolId: number }>(admin, 'AlbumTask', 'albumTask', { name: TASK })).items[0]!;
    // Books with photos: the demo class also has children without any, whose books are all empty slots.
    const books = (await searchRows<{ id: number; studentId: number; state: number; slotsFilled: number }>(admin, 'AlbumBook', 'automaticBook', { taskId: task.id, pageSize: 50 })).items.filter((book) => book.slotsFilled > 0);
    const parents = await searchRows<{ id: number; version: number; phoneNum: string; studentIds: number[] }>(admin, 'Parent', 'parentUser', { schoolId: task.schoolId, pageSize: 100 });
    const parent = parents.items.find((candidate) => candidate.studentIds.some((id) => books.some((book) => book.studentId === id)))!;
    await giveParentAppPassword(admin, parent.id, APP_PASSWORD);
    const { token } = await call<{ token: string }>(APP_PATHS.signIn, { method: 'POST', body: JSON.stringify({ phoneNum: parent.phoneNum, password: md5(APP_PASSWORD) }) });
    const all = await asParent<{ id: number; prices: { unitPriceJD: number; unitPriceZC: number }; layout: { pages: { page: number; slots: { kind: string; image?: string }[] }[] } }[]>(token, ALBUM_APP_PATHS.books);
    const mine = all.filter((book) => book.layout.pages.some((candidate) => candidate.slots.some((slot) => slot.image)));
    expect(mine.length).toBeGreaterThan(0);
    parentToken = token;
    bookId = mine[0]!.id;
    // The parent customises the book first: another of the child's photos and a caption on a page, saved as a version.
    const photos = await asParent<{ id: number }[]>(token, `${ALBUM_APP_PATHS.photos}?bookId=${bookId}`);
    const page = mine[0]!.layout.pages.find((candidate) => candidate.slots.some((slot) => slot.kind === 'caption'))!;
    const changes: Record<string, unknown>[] = [
      { page: page.page, slot: page.slots.findIndex((slot) => slot.kind === 'caption'), caption: '端到端的一页' },
      { page: page.page, slot: page.slots.findIndex((slot) => slot.kind === 'photo'), photoId: photos.at(-1)!.id },
    ];
    const version = await asParent<{ versionNo: number }>(token, ALBUM_APP_PATHS.saveVersion, { bookId, changes });
    await expect
      .poll(async () => (await asParent<{ versionNo: number; state: number }[]>(token, `${ALBUM_APP_PATHS.versions}?bookId=${bookId}`)).find((row) => row.versionNo === version.versionNo)?.state, { timeout: 60_000, interval: 1_000 })
      .toBe(3);
    versionTitle = `v${version.versionNo}`;
    const order = await asParent<{ orderNo: string; amount: number; state: number }>(token, ALBUM_APP_PATHS.order, {
      bookId,
      versionNo: version.versionNo,
      kind: 1,
      copies: 2,
      consigneeName: '王女士',
      consigneePhone: '13800001111',
      deliveryAddress: '浙江省杭州市西湖区文三路 100 号',
    });
    expect(order.amount).toBe(mine[0]!.prices.unitPriceJD + mine[0]!.prices.unitPriceZC);
    expect(order.state).toBe(2);
    orderNo = order.orderNo;
  });

  it('lists the parent’s version on albumCustomized and previews it', async () => {
    const { page } = session();
    const versions = await openFromMenu(page, 'operations', 'albumCustomized');
    await waitForTable(versions);
    const link = versions.getByRole('button', { name: `${versionTitle} 预览` }).first();
    await link.waitFor();
    await link.click();
    const preview = page.locator('.ant-drawer').filter({ hasText: '定制版本预览' });
    await preview.waitFor();
    await expect.poll(() => preview.getByText('端到端的一页').count()).toBeGreaterThan(0);
    await expect.poll(() => preview.locator('img').count()).toBeGreaterThan(0);
    expect(await preview.getByRole('link', { name: '打开印刷 PDF' }).count()).toBe(1);
    await screenshot(page, 'albums-02b-version');
    await preview.locator('.ant-drawer-close').click();
  });

  it('moves the order through production from send to close', async () => {
    const { page } = session();
    const production = await openFromMenu(page, 'operations', 'albumProduction');
    await waitForTable(production);
    const row = () => tableRows(production).filter({ hasText: orderNo });
    const state = async () => (await row().locator('.ant-tag').allInnerTexts()).find((text) => ['已支付', '已送印', '已通知印刷', '准予印刷', '已收货', '已关闭'].includes(text));
    await expect.poll(state).toBe('已支付');
    for (const [label, after] of [['送印', '已送印'], ['通知印刷', '已通知印刷'], ['准予印刷', '准予印刷'], ['确认收货', '已收货'], ['关闭订单', '已关闭']] as const) {
      await rowAction(row(), label);
      // Closing asks first (the transition's confirm), then opens its form.
      if (label === '关闭订单') await page.locator('.ant-modal-confirm').getByRole('button', { name: buttonText('确定') }).click();
      // The form, not the closing confirmation (which has a title too).
      const form = modal(page, label).and(page.locator('.ant-modal:not(.ant-modal-confirm)'));
      await form.waitFor();
      const sent = await submitUntilSent(form.getByRole('button', { name: buttonText('确定') }), '/api/AlbumOrder/');
      expect(sent.status(), await sent.text()).toBe(200);
      await expect.poll(state).toBe(after);
      if (label === '送印') await screenshot(page, 'albums-03-sent');
    }
    await screenshot(page, 'albums-04-closed');
  });

  it('sends a batch of orders to print together', async () => {
    const orderNos: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const order = await asParent<{ orderNo: string }>(parentToken, ALBUM_APP_PATHS.order, { bookId, kind: 1, copies: 1, consigneeName: '王女士', consigneePhone: '13800001111', deliveryAddress: '浙江省杭州市西湖区文三路 100 号' });
      orderNos.push(order.orderNo);
    }
    const { page } = session();
    const production = await openFromMenu(page, 'operations', 'albumProduction');
    // The tab kept its list from the step before: reload it through its tab menu to list the new orders.
    await tabMenu(page, 'albumProduction', '刷新');
    await waitForTable(production);
    const row = (no: string) => tableRows(production).filter({ hasText: no });
    await expect.poll(() => row(orderNos[1]!).count(), { timeout: 10_000 }).toBe(1);
    for (const no of orderNos) await row(no).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: buttonText('批量送印') }).click();
    const sent = await submitUntilSent(page.locator('.ant-modal-confirm').getByRole('button', { name: buttonText('确定') }), '/api/AlbumOrder/BatchSend');
    expect(sent.status(), await sent.text()).toBe(200);
    await toast(page, '2 条已送印').waitFor();
    for (const no of orderNos) await expect.poll(async () => (await row(no).locator('.ant-tag').allInnerTexts()).includes('已送印')).toBe(true);
    await screenshot(page, 'albums-05-batch-sent');
  });
});
