/**
 * A tree page and the operation log (issue 7): as admin, add a child directory under a demo
 * directory on directoryManage and see it nested in the tree, then find that add on
 * mainOperationLog and read its changes as a before → after table in the drawer.
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, drawer, formItem, loginThroughForm, openFromMenu, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A top-level directory of the demo (apps/server/src/seeds/demo-directories.ts). */
const PARENT = '安全教育';

describe('admin: a child directory in the tree, and its add in the operation log', () => {
  const session = journey('directory-tree', () => browser);
  const name = `防溺水-${Date.now().toString(36)}`;
  let tree: Locator;
  const rowNamed = (text: string) => tableRows(tree).filter({ has: tree.page().locator('td', { hasText: new RegExp(`^${text}$`) }) });

  it('adds a child directory under a top-level one and sees it nested below it', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    tree = await openFromMenu(page, 'operations', 'directoryManage');
    await waitForTable(tree);
    const parent = rowNamed(PARENT);
    await parent.getByRole('button', { name: buttonText('添加下级') }).click();
    const form = drawer(page, '新增目录');
    await form.waitFor();
    await formItem(form, '目录名称').locator('input').fill(name);
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });
    const child = rowNamed(name);
    await child.waitFor();
    // Nested: antd indents a child row one level deeper than its parent.
    await expect.poll(() => child.getAttribute('class')).toContain('ant-table-row-level-1');
    expect(await parent.getAttribute('class')).toContain('ant-table-row-level-0');
    await screenshot(page, 'directory-01-child-added');
  });

  it('finds the add on mainOperationLog and shows its changes in the drawer', async () => {
    const { page } = session();
    const log = await openFromMenu(page, 'maintenance', 'mainOperationLog');
    await waitForTable(log);
    // Newest first: the add just made is on the first page.
    const entry = tableRows(log).filter({ hasText: '目录' }).filter({ hasText: '新增' }).first();
    await entry.waitFor();
    await screenshot(page, 'directory-02-operation-log');
    await entry.click();
    const detail = drawer(page, '操作日志详情');
    await detail.waitFor();
    const nameChange = detail.locator('.ant-table-row').filter({ hasText: '目录名称' });
    await nameChange.waitFor();
    expect(await nameChange.locator('.ant-tag').allInnerTexts()).toEqual([name]);
    await screenshot(page, 'directory-03-diff');
  });
});
