/**
 * A workflow page (issue 7): as admin, report a maintenance ticket on a device, assign it, start it,
 * complete it — each row offering only the transitions its state allows — and read the timeline in
 * the record drawer.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, columnTexts, drawer, formItem, loginThroughForm, openFromMenu, pickOption, rowAction, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Demo seed: the first device of the first demo school. */
const DEVICE = 'G31001';

const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/**
 * The labels of a row's operations, folded ones included. Polled by the steps: the row's buttons are
 * drawn again when its state changes, and a read in between sees part of them.
 */
async function rowActionLabels(row: Locator): Promise<string[]> {
  const inline = (await row.locator('td').last().getByRole('button').allInnerTexts()).map((text) => text.replace(/\s+/g, ''));
  if (!inline.includes('更多')) return inline;
  await row.getByRole('button', { name: buttonText('更多') }).hover();
  const menu = row.page().locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
  await menu.waitFor();
  const folded = await menu.getByRole('menuitem').allInnerTexts();
  await row.page().mouse.move(0, 0);
  await menu.waitFor({ state: 'hidden' });
  return [...inline.filter((text) => text !== '更多'), ...folded.map((text) => text.replace(/\s+/g, ''))];
}

describe('admin: a maintenance ticket from open to done', () => {
  const session = journey('maintenance-admin', () => browser);
  const title = `闸机无法开门-${Date.now().toString(36)}`;
  let tickets: Locator;
  const row = () => tableRows(tickets).filter({ hasText: title });
  const stateOf = async () => (await row().locator('.ant-tag').allInnerTexts()).find((text) => ['待处理', '已派单', '处理中', '已完成', '已关闭'].includes(text));

  it('reports a ticket on a device; it starts open with a ticket number', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    tickets = await openFromMenu(page, 'maintenance', 'equipmentMaintenance');
    await waitForTable(tickets);
    await tickets.getByRole('button', { name: buttonText('新增') }).click();
    const form = drawer(page, '新增维修工单');
    await form.waitFor();
    await pickOption(formItem(form, '设备'), DEVICE, { search: true });
    await formItem(form, '故障标题').locator('input').fill(title);
    await formItem(form, '故障描述').locator('textarea').fill('刷脸成功但闸机不开门');
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(stateOf).toBe('待处理');
    expect(await row().textContent()).toMatch(/WX\d{14}/);
    await expect.poll(() => rowActionLabels(row())).toEqual(['编辑', '派单', '关闭', '删除']);
    await screenshot(page, 'maintenance-01-open');
  });

  it('assigns it to a member of staff with a remark', async () => {
    const { page } = session();
    await rowAction(row(), '派单');
    const form = modal(page, '派单');
    await form.waitFor();
    await pickOption(formItem(form, '处理人'), '系统管理员', { search: true });
    await formItem(form, '备注').locator('textarea').fill('请今天上门');
    await screenshot(page, 'maintenance-02-assign');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '派单已完成').waitFor();
    await expect.poll(stateOf).toBe('已派单');
    expect(await columnTexts(tickets, '处理人')).toContain('系统管理员');
  });

  it('starts and completes it, offering only what each state allows', async () => {
    const { page } = session();
    await expect.poll(() => rowActionLabels(row())).toEqual(['编辑', '派单', '开始处理', '关闭', '删除']);
    await rowAction(row(), '开始处理');
    await toast(page, '开始处理已完成').waitFor();
    await expect.poll(stateOf).toBe('处理中');
    await expect.poll(() => rowActionLabels(row())).toEqual(['编辑', '完成', '关闭', '删除']);

    await rowAction(row(), '完成');
    const form = modal(page, '完成');
    await form.waitFor();
    await formItem(form, '处理结果').locator('textarea').fill('更换门禁继电器');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '完成已完成').waitFor();
    await expect.poll(stateOf).toBe('已完成');
    // A finished ticket is a record: no more editing, its history instead.
    await expect.poll(() => rowActionLabels(row())).toEqual(['流转记录', '删除']);
    await screenshot(page, 'maintenance-03-done');
  });

  it('shows who moved it when, from which state to which, in its history', async () => {
    const { page } = session();
    await rowAction(row(), '流转记录');
    const form = drawer(page, '流转记录');
    await form.waitFor();
    const timeline = form.locator('.state-timeline .ant-timeline-item');
    await expect.poll(() => timeline.count()).toBe(3);
    const steps = (await timeline.allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
    expect(steps[0]).toMatch(/派单 待处理 → 已派单 系统管理员 · .+ 请今天上门/);
    expect(steps[1]).toMatch(/开始处理 已派单 → 处理中 系统管理员/);
    expect(steps[2]).toMatch(/完成 处理中 → 已完成 系统管理员/);
    await form.locator('.state-timeline').scrollIntoViewIfNeeded();
    await screenshot(page, 'maintenance-04-timeline');
  });
});
