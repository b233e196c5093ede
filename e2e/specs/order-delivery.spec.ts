/**
 * An order shipped appears as a delivery (issue 7): as admin, ship the demo's confirmed order with
 * serial numbers of in-stock devices matching its lines, see it shipped, and find the delivery it
 * created on equipmentDelivery.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, searchRows } from '../support/api';
import { baseUrl, launchBrowser, screenshot } from '../support/browser';
import { buttonText, formItem, loginThroughForm, openFromMenu, rowAction, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

interface OrderLine {
  deviceClassCode: string;
  quantity: number;
}

/** In-stock devices (state 1) of a model, as many as a line asks for: the server says which. */
async function stockFor(token: string, line: OrderLine): Promise<string[]> {
  const { items } = await searchRows<{ serialNumber: string }>(token, 'Device', 'deviceInformation', { state: 1, deviceClassCode: line.deviceClassCode });
  expect(items.length, `in-stock ${line.deviceClassCode}`).toBeGreaterThanOrEqual(line.quantity);
  return items.slice(0, line.quantity).map((device) => device.serialNumber);
}

describe('admin: an order shipped appears as a delivery', () => {
  const session = journey('order-delivery', () => browser);
  let orderNo: string;
  let serialNumbers: string[];
  let orders: Locator;
  const row = () => tableRows(orders).filter({ hasText: orderNo });
  const stateOf = async () => (await row().locator('.ant-tag').allInnerTexts()).find((text) => ['已提交', '已确认', '已发货', '已完成', '已取消'].includes(text));

  beforeAll(async () => {
    // The demo's first school has a confirmed order; its lines say which devices to pick.
    const token = await apiLogin('admin');
    const { items } = await searchRows<{ id: number; orderNo: string }>(token, 'Order', 'orderManage', { state: 2 });
    expect(items.length, 'a confirmed demo order').toBeGreaterThan(0);
    orderNo = items[0]!.orderNo;
    const response = await fetch(`${baseUrl()}/api/Order/Get?id=${items[0]!.id}&view=orderManage`, { headers: { authorization: `Bearer ${token}` } });
    const lines = ((await response.json()) as { data: { items: OrderLine[] } }).data.items;
    serialNumbers = (await Promise.all(lines.map((line) => stockFor(token, line)))).flat();
  });

  it('finds the confirmed order on orderManage, offering Ship and Cancel', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    orders = await openFromMenu(page, 'inventory', 'orderManage');
    await waitForTable(orders);
    await expect.poll(stateOf).toBe('已确认');
    const actions = (await row().locator('td').last().innerText()).replace(/\s+/g, '');
    expect(actions).toContain('发货');
    expect(actions).not.toContain('完成');
    await screenshot(page, 'order-01-confirmed');
  });

  it('ships it with the serial numbers of in-stock devices matching its lines', async () => {
    const { page } = session();
    await rowAction(row(), '发货');
    const form = modal(page, '发货');
    await form.waitFor();
    await formItem(form, '设备序列号').locator('textarea').fill(serialNumbers.join('\n'));
    // The warranty starts from its declared default.
    expect(await formItem(form, '质保月数').locator('input').inputValue()).toBe('12');
    await screenshot(page, 'order-02-ship-form');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '发货已完成').waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(stateOf).toBe('已发货');
    // The order now names its delivery: FH + the order number's digits.
    await expect.poll(() => row().textContent()).toContain(`FH${orderNo.slice(2)}`);
    await screenshot(page, 'order-03-shipped');
  });

  it('lists the delivery the shipping created on equipmentDelivery', async () => {
    const { page } = session();
    const deliveries = await openFromMenu(page, 'inventory', 'equipmentDelivery');
    await waitForTable(deliveries);
    const delivery = tableRows(deliveries).filter({ hasText: `FH${orderNo.slice(2)}` });
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain(String(serialNumbers.length));
    await screenshot(page, 'order-04-delivery');
  });
});
