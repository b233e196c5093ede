/**
 * Excel import (issue 11): as admin on the student page, download the template, upload a file with
 * one wrong row and see its cell named, fix the file, import it, and find the rows in the list.
 */
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, loginThroughForm, openFromMenu, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const SCHOOL = '杭州市西湖区育才幼儿园';

/** The template's first sheet filled with rows, as a user saves it from Excel. */
async function filledTemplate(template: Buffer, rows: (string | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe('admin: import students from Excel', () => {
  const session = journey('import-students', () => browser);
  const tag = Date.now().toString(36);
  let students: Locator;
  let template: Buffer;
  let headers: string[];

  it('downloads the template with the declared columns', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    students = await openFromMenu(page, 'users', 'studentInfo');
    await waitForTable(students);
    await students.getByRole('button', { name: buttonText('导入') }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入学生' });
    await dialog.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: buttonText('下载导入模板') }).click()]);
    template = await readFile((await download.path())!);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(template as unknown as ArrayBuffer);
    headers = (book.worksheets[0]!.getRow(1).values as string[]).slice(1);
    expect(headers.slice(0, 3)).toEqual(['学校 *', '班级', '姓名 *']);
    await screenshot(page, 'import-01-dialog');
  });

  const row = (name: string, gender: string) => headers.map((header) => (header === '学校 *' ? SCHOOL : header === '姓名 *' ? name : header === '性别' ? gender : null));

  it('shows the wrong cell of a file with one bad row, and writes nothing', async () => {
    const { page } = session();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入学生' });
    const file = await filledTemplate(template, [row(`导入甲${tag}`, '女'), row(`导入乙${tag}`, '外星人')]);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'students.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await dialog.getByText('共 2 行：1 行有效，1 行有误').waitFor();
    const error = dialog.locator('.ant-table-tbody tr.ant-table-row').first();
    await expect.poll(() => error.innerText()).toMatch(/3\s+F\s+性别\s+应为以下之一：男、女/);
    await screenshot(page, 'import-02-errors');
    const { total } = await searchRows(await apiLogin('admin'), 'Student', 'studentInfo', { name: `导入` + '甲' + tag });
    expect(total).toBe(0);
  });

  it('imports the fixed file, and the rows appear in the list', async () => {
    const { page } = session();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入学生' });
    await dialog.getByRole('button', { name: buttonText('重新选择文件') }).click();
    const file = await filledTemplate(template, [row(`导入甲${tag}`, '女'), row(`导入乙${tag}`, '男')]);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'students.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    await dialog.getByText('全部 2 行检查通过，可以导入。').waitFor();
    await dialog.getByRole('button', { name: buttonText('导入 2 行') }).click();
    await toast(page, '已导入 2 行').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => students.locator('.ant-table-tbody').innerText()).toContain(`导入乙${tag}`);
    await screenshot(page, 'import-03-imported');
    const token = await apiLogin('admin');
    for (const name of [`导入甲${tag}`, `导入乙${tag}`]) expect((await searchRows(token, 'Student', 'studentInfo', { name })).total).toBe(1);
  });
});
