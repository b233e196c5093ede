/**
 * Tables that remember (issue 11), as agent2 on 学校管理: hide a column (学校类型) and pick 50 rows a page,
 * then log in from a new browser (a fresh context: no storage shared) and find both kept; open a
 * shared address with filters and get the same list; go back to the list before a search.
 */
import { PREFERENCE_PATHS } from '@campus/contract';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, columnTexts, formItem, loginThroughForm, openFromMenu, pane, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
let token: string;
const PAGE_KEY = 'schoolManage.School';
/** Demo seed: agent2's school. */
const AGENT2_SCHOOL = '成都市武侯区锦城小学';

const resetLayout = () => call(PREFERENCE_PATHS.resetTable, { method: 'POST', body: JSON.stringify({ page: PAGE_KEY }) }, token);
const headerTitles = (scope: Locator) => scope.locator('.ant-table thead th').evaluateAll((ths) => ths.map((th) => th.textContent?.trim() ?? ''));

beforeAll(async () => {
  browser = await launchBrowser();
  token = await apiLogin('agent2');
  await resetLayout();
});
afterAll(async () => {
  // The next run, and other journeys of agent2, start from the declaration's layout.
  if (token) await resetLayout();
  await browser?.close();
});

describe('agent2: the table layout follows the user to another browser', () => {
  const first = journey('tables-first-browser', () => browser);

  it('hides 学校类型 and shows 50 rows a page', async () => {
    const { page } = first();
    await loginThroughForm(page, 'agent2');
    const schools = await openFromMenu(page, 'sales', 'schoolManage');
    await waitForTable(schools);
    expect(await headerTitles(schools)).toContain('学校类型');

    await schools.getByRole('button', { name: '列设置' }).click();
    const settings = page.getByTestId('column-settings');
    await settings.locator('[data-column="schoolType"] .ant-checkbox-wrapper').click();
    await expect.poll(() => headerTitles(schools)).not.toContain('学校类型');
    // The settings close as they opened, uncovering the pager.
    await schools.getByRole('button', { name: '列设置' }).click();
    await settings.waitFor({ state: 'hidden' });

    await schools.locator('.ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '50' }).click();
    await expect.poll(() => schools.locator('.ant-pagination-options .ant-select-content, .ant-pagination-options .ant-select-selection-item').first().textContent()).toContain('50');
    // Saved on the server once the changes settle.
    await expect
      .poll(async () => (await call<{ table: { hidden: string[]; pageSize?: number } | null }>(`${PREFERENCE_PATHS.get}?page=${PAGE_KEY}`, {}, token)).table)
      .toMatchObject({ hidden: ['schoolType'], pageSize: 50 });
    await screenshot(page, 'tables-01-layout-changed');
  });
});

describe('agent2: a new browser', () => {
  const second = journey('tables-second-browser', () => browser);

  it('shows the saved layout after logging in again', async () => {
    const { page } = second();
    await loginThroughForm(page, 'agent2');
    const schools = await openFromMenu(page, 'sales', 'schoolManage');
    await waitForTable(schools);
    expect(await headerTitles(schools)).not.toContain('学校类型');
    expect(await schools.locator('.ant-pagination-options').first().textContent()).toContain('50');
  });

  it('opens a shared address with its filters, and the back button returns to the list before a search', async () => {
    const { page } = second();
    await page.goto(`/schoolManage?schoolName=${encodeURIComponent('锦城')}`);
    const schools = pane(page, 'schoolManage');
    await waitForTable(schools);
    const nameFilter = formItem(schools.locator('.resource-filter-bar'), '学校名称').locator('input');
    await expect.poll(() => nameFilter.inputValue()).toBe('锦城');
    await expect.poll(() => columnTexts(schools, '学校名称')).toEqual([AGENT2_SCHOOL]);

    await nameFilter.fill('没有这样的学校');
    await schools.locator('.resource-filter-bar').getByRole('button', { name: buttonText('查询') }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('schoolName')).toBe('没有这样的学校');
    await expect.poll(() => columnTexts(schools, '学校名称')).toEqual([]);

    await page.goBack();
    await expect.poll(() => nameFilter.inputValue()).toBe('锦城');
    await expect.poll(() => columnTexts(schools, '学校名称')).toEqual([AGENT2_SCHOOL]);
    await screenshot(page, 'tables-02-shared-address');
  });
});
