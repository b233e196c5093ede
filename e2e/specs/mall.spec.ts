/**
 * The mall end to end (issue 29): staff release a commodity to one school, a parent of that school
 * orders and pays it through the app channel (the demo provider settles at once), staff ship it on
 * mallOrderManage, the parent confirms receipt and comments, and the comment appears on evaluateManage.
 */
import { APP_MALL_PATHS, APP_PATHS, IDEMPOTENCY_KEY_HEADER, POSTER_AUDIENCE_SCHOOLS, formatBusinessDate, type AppMallOrder, type AppMallPayment } from '@campus/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, giveParentAppPassword, md5, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, formItem, loginThroughForm, openFromMenu, rowAction, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const APP_PASSWORD = 'Parent@2026';
const TITLE = `绘本套装${Date.now() % 100_000}`;
const COMMENT = `孩子每天都在读${Date.now() % 1000}`;
const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/** A parent app call: the parent's token, and a fresh Idempotency-Key on writes. */
function asParent<T>(token: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  return call<T>(path, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }, token);
}

describe('a commodity released to a school is ordered, shipped, received and commented on', () => {
  const session = journey('mall', () => browser);
  let commodityId: number;
  let parentToken: string;
  let order: { orderId: number; orderNo: string };

  it('is released by staff to one school and offered to its parents only', async () => {
    const admin = await apiLogin('admin');
    const categories = await searchRows<{ id: number }>(admin, 'MarketCategory', 'classificationManage', {});
    const merchants = await searchRows<{ id: number }>(admin, 'MarketMerchant', 'merchantManage', {});
    const added = await call<{ id: number }>(
      '/api/MarketCommodity/Add?view=goodsManage',
      {
        method: 'POST',
        body: JSON.stringify({ title: TITLE, subtitle: '精装 6 册', categoryId: categories.items[0]!.id, merchantId: merchants.items[0]!.id, unitPrice: 6_800, stockCount: 5, isEnabled: true, detail: `<p>${TITLE}</p>` }),
      },
      admin,
    );
    commodityId = added.id;
    const parents = await searchRows<{ id: number; version: number; phoneNum: string; schoolId: number; studentIds: number[] }>(admin, 'Parent', 'parentUser', { pageSize: 50 });
    const parent = parents.items.find((row) => row.studentIds.length > 0)!;
    const other = parents.items.find((row) => row.schoolId !== parent.schoolId && row.studentIds.length > 0)!;
    const today = formatBusinessDate(new Date());
    await call(
      '/api/MarketCommodityRelease/Add?view=productReleaseList',
      { method: 'POST', body: JSON.stringify({ title: `${TITLE} · 指定学校`, commodityId, startDate: today, endDate: today, audience: POSTER_AUDIENCE_SCHOOLS, schoolIds: [parent.schoolId], sort: 0, enabled: true }) },
      admin,
    );
    for (const row of [parent, other]) await giveParentAppPassword(admin, row.id, APP_PASSWORD);
    const signIn = (phoneNum: string) => call<{ token: string }>(APP_PATHS.signIn, { method: 'POST', body: JSON.stringify({ phoneNum, password: md5(APP_PASSWORD) }) });
    parentToken = (await signIn(parent.phoneNum)).token;
    const offered = await asParent<{ rows: { id: number }[] }>(parentToken, `${APP_MALL_PATHS.commodities}?page=1&size=100`);
    expect(offered.rows.map((row) => row.id)).toContain(commodityId);
    const elsewhere = await asParent<{ rows: { id: number }[] }>((await signIn(other.phoneNum)).token, `${APP_MALL_PATHS.commodities}?page=1&size=100`);
    expect(elsewhere.rows.map((row) => row.id)).not.toContain(commodityId);
  });

  it('is ordered and paid by the parent through the app channel', async () => {
    const address = await asParent<{ id: number }>(parentToken, APP_MALL_PATHS.saveAddress, { consigneeName: '王芳', consigneePhone: '13800001234', province: '浙江省', city: '杭州市', area: '西湖区', detail: '文三路 100 号', isDefault: true });
    const placed = await asParent<{ orderId: number; orderNo: string; payAmount: number }>(parentToken, APP_MALL_PATHS.placeOrder, { lines: [{ commodityId, quantity: 1 }], addressId: address.id });
    expect(placed.payAmount).toBe(6_800);
    const paid = await asParent<AppMallPayment>(parentToken, APP_MALL_PATHS.payOrder, { orderId: placed.orderId });
    expect(paid).toMatchObject({ outcome: 'paid', state: 2 });
    order = placed;
  });

  it('is shipped by staff on mallOrderManage', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const orders = await openFromMenu(page, 'operations', 'mallOrderManage');
    await waitForTable(orders);
    const row = () => tableRows(orders).filter({ hasText: order.orderNo });
    await row().waitFor();
    await screenshot(page, 'mall-01-paid');
    await rowAction(row(), '发货');
    const form = modal(page, '发货');
    await form.waitFor();
    await formItem(form, '快递公司').locator('input').fill('顺丰速运');
    await formItem(form, '快递单号').locator('input').fill('SF1600000001');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '发货').waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row().locator('.ant-tag').allInnerTexts()).join(' ')).toContain('已发货');
    await screenshot(page, 'mall-02-shipped');
  });

  it('is confirmed and commented on by the parent, and the comment appears on evaluateManage', async () => {
    await asParent(parentToken, APP_MALL_PATHS.confirmReceipt, { orderId: order.orderId });
    const mine = await asParent<AppMallOrder>(parentToken, `${APP_MALL_PATHS.order}?id=${order.orderId}`);
    expect(mine).toMatchObject({ state: 4, carrier: '顺丰速运', trackingNo: 'SF1600000001' });
    await asParent(parentToken, APP_MALL_PATHS.comment, { orderId: order.orderId, commodityId, score: 5, content: COMMENT });

    const { page } = session();
    const comments = await openFromMenu(page, 'operations', 'evaluateManage');
    await waitForTable(comments);
    const row = tableRows(comments).filter({ hasText: COMMENT });
    await row.waitFor();
    expect(await row.textContent()).toContain(TITLE);
    await screenshot(page, 'mall-03-comment');
  });
});
