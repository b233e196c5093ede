/**
 * The generic resource page on schools (issue 3): as admin, add a school through the drawer form,
 * find it with the name filter, edit it, export the filtered list and read the .xlsx back, delete
 * it; as agent1, the list holds agent1's schools and none of agent2's.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, searchSchools } from '../support/api';
import { ARTIFACTS_DIR, launchBrowser, screenshot } from '../support/browser';
import {
  buttonText,
  columnTexts,
  drawer,
  formItem,
  loginThroughForm,
  openFromMenu,
  pane,
  pickOption,
  rowAction,
  tableRows,
  toast,
  waitForTable,
} from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PAGE = { group: 'sales', index: 'schoolManage' } as const;

/** Demo seed: a school of agent1 and one of agent2. */
const AGENT1_SCHOOL = '杭州市西湖区育才幼儿园';
const AGENT2_SCHOOL = '成都市武侯区锦城小学';

/** Searches the page by school name and waits until the table shows that answer. */
async function searchByName(schools: Locator, name: string, expected: string[]): Promise<void> {
  const filters = schools.locator('.resource-filter-bar');
  await formItem(filters, '学校名称').locator('input').fill(name);
  await filters.getByRole('button', { name: buttonText('查询') }).click();
  await expect.poll(() => columnTexts(schools, '学校名称')).toEqual(expected);
  await waitForTable(schools);
}

describe('admin: add, find, edit, export and delete a school', () => {
  const session = journey('school-admin', () => browser);
  const stamp = Date.now().toString(36);
  const schoolName = `端到端测试学校-${stamp}`;
  let schools: Locator;
  let token: string;

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  it('opens 学校管理 from the menu', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    schools = await openFromMenu(page, PAGE.group, PAGE.index);
    await waitForTable(schools);
    await expect.poll(() => columnTexts(schools, '学校名称')).toContain(AGENT2_SCHOOL);
    await screenshot(page, 'school-01-list');
  });

  it('adds a school through the drawer form', async () => {
    const { page } = session();
    await schools.getByRole('button', { name: buttonText('新增') }).click();
    const form = drawer(page, '新增学校');
    await form.waitFor();
    await formItem(form, '学校名称').locator('input').fill(schoolName);
    await pickOption(formItem(form, '省'), '浙江省', { search: true });
    await pickOption(formItem(form, '市'), '杭州市', { search: true });
    await pickOption(formItem(form, '区'), '滨江区', { search: true });
    await formItem(form, '详细地址').locator('input').fill('江南大道 1 号');
    await pickOption(formItem(form, '学校类型'), '小学');
    await formItem(form, '授权码').getByText('需要授权码', { exact: true }).click();
    await formItem(form, '联系人').locator('input').fill('张老师');
    await formItem(form, '联系电话').locator('input').fill('13900001234');
    await screenshot(page, 'school-02-add-form');
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });

    const stored = await searchSchools(token, schoolName);
    expect(stored.total).toBe(1);
    expect(stored.items[0]).toMatchObject({ schoolName, province: '浙江省', city: '杭州市', area: '滨江区', schoolType: 2, licenseKeyRequired: 1, contactName: '张老师' });
  });

  it('finds it with the name filter', async () => {
    const { page } = session();
    await searchByName(schools, schoolName, [schoolName]);
    const row = tableRows(schools).filter({ hasText: schoolName });
    expect(await row.textContent()).toContain('浙江省杭州市滨江区');
    expect(await columnTexts(schools, '联系人')).toEqual(['张老师']);
    await screenshot(page, 'school-03-found');
  });

  it('edits its contact name', async () => {
    const { page } = session();
    await rowAction(tableRows(schools).filter({ hasText: schoolName }), '编辑');
    const form = drawer(page, '编辑学校');
    await form.waitFor();
    const name = formItem(form, '学校名称').locator('input');
    await expect.poll(() => name.inputValue()).toBe(schoolName);
    await formItem(form, '联系人').locator('input').fill('李老师');
    await screenshot(page, 'school-04-edit-form');
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已保存').waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => columnTexts(schools, '联系人')).toEqual(['李老师']);
    expect(await columnTexts(schools, '学校名称')).toEqual([schoolName]);
    expect((await searchSchools(token, schoolName)).items[0]?.contactName).toBe('李老师');
  });

  it('exports the filtered list as an .xlsx with Chinese headers and exactly that row', async () => {
    const { page } = session();
    const downloading = page.waitForEvent('download', { timeout: 60_000 });
    await schools.getByRole('button', { name: buttonText('导出') }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^学校管理-\d{4}-\d{2}-\d{2}\.xlsx$/);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const file = path.join(ARTIFACTS_DIR, 'school-export.xlsx');
    await download.saveAs(file);
    expect(await download.failure()).toBeNull();

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0]!;
    const rowValues = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1).map((value) => (value == null ? '' : String(value)));
    const header = rowValues(1);
    expect(header).toEqual(expect.arrayContaining(['学校名称', '省', '市', '学校类型', '联系人', '联系电话']));
    for (const label of header) expect(label, 'every header is a Chinese label').toMatch(/[\u4e00-\u9fff]/);
    expect(sheet.actualRowCount, 'the header and exactly one data row').toBe(2);
    const data = Object.fromEntries(header.map((label, i) => [label, rowValues(2)[i]]));
    expect(data).toMatchObject({ 学校名称: schoolName, 省: '浙江省', 市: '杭州市', 学校类型: '小学', 联系人: '李老师', 联系电话: '13900001234' });
    await toast(page, '已导出').waitFor();
    await screenshot(page, 'school-05-exported');
  });

  it('deletes it after the confirm', async () => {
    const { page } = session();
    await rowAction(tableRows(schools).filter({ hasText: schoolName }), '删除');
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: schoolName });
    await confirm.waitFor();
    expect(await confirm.locator('.ant-modal-confirm-title').textContent()).toBe('确认删除');
    await screenshot(page, 'school-06-delete-confirm');
    await confirm.getByRole('button', { name: buttonText('删除') }).click();
    await toast(page, '已删除 1 条').waitFor();
    await expect.poll(() => tableRows(schools).count()).toBe(0);
    expect((await searchSchools(token, schoolName)).total).toBe(0);
    await screenshot(page, 'school-07-deleted');
  });
});

describe("agent1: its own schools, never agent2's", () => {
  const session = journey('school-agent1', () => browser);

  it("lists agent1's schools and not agent2's", async () => {
    const { page } = session();
    await loginThroughForm(page, 'agent1');
    const schools = await openFromMenu(page, PAGE.group, PAGE.index);
    await waitForTable(schools);
    // The first page is what the server answers agent1 (same default order and page size).
    const answer = await searchSchools(await apiLogin('agent1'));
    await expect.poll(() => columnTexts(schools, '学校名称')).toEqual(answer.items.map((item) => item.schoolName));
    const names = await columnTexts(schools, '学校名称');
    expect(names).toContain(AGENT1_SCHOOL);
    expect(names).not.toContain(AGENT2_SCHOOL);
    await screenshot(page, 'school-08-agent1-list');
  });

  it("finds nothing when it searches agent2's school by name", async () => {
    const { page } = session();
    const schools = pane(page, PAGE.index);
    await searchByName(schools, AGENT2_SCHOOL, []);
    await schools.locator('.ant-table-placeholder .ant-empty').waitFor();
    await searchByName(schools, AGENT1_SCHOOL, [AGENT1_SCHOOL]);
  });
});
