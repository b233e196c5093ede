/**
 * Uploads in a family's form (issue 3's image fields): as admin, add a student with a face photo
 * uploaded through the drawer; the row keeps the file, which opens only by the signed address the
 * console answered, and the edit form shows the photo again.
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, searchRows } from '../support/api';
import { baseUrl, launchBrowser, screenshot } from '../support/browser';
import { buttonText, drawer, formItem, loginThroughForm, openFromMenu, pickOption, revealFilter, rowAction, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A 1 × 1 PNG, decoded by the browser like any photo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const SCHOOL = '杭州市西湖区育才幼儿园';

describe('admin: a student with a face photo', () => {
  const session = journey('student-photo', () => browser);
  const name = `照片学生${Date.now().toString(36)}`;
  let students: Locator;
  let token: string;

  beforeAll(async () => {
    token = await apiLogin('admin');
  });

  it('uploads the photo in the add form and saves the student', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    students = await openFromMenu(page, 'users', 'studentInfo');
    await waitForTable(students);
    await students.getByRole('button', { name: buttonText('新增') }).click();
    const form = drawer(page, '新增学生');
    await form.waitFor();
    await pickOption(formItem(form, '学校'), SCHOOL, { search: true });
    await formItem(form, '姓名').locator('input').fill(name);
    await formItem(form, '人脸照片').locator('input[type="file"]').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG });
    await formItem(form, '人脸照片').locator('.ant-upload-list-item-done img').waitFor();
    await screenshot(page, 'student-01-photo-uploaded');
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });
  });

  it('keeps the file, opened only by the signed address the console answers', async () => {
    const { items } = await searchRows<{ faceImage: string }>(token, 'Student', 'studentInfo', { name });
    expect(items).toHaveLength(1);
    const signed = items[0]!.faceImage;
    expect(signed).toMatch(/^\/uploads\/\d{4}\/\d{2}\/[\w-]{22}\.png\?e=\d+&s=[\w-]{43}$/);
    const served = await fetch(`${baseUrl()}${signed}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${baseUrl()}${signed.split('?')[0]}`)).status).toBe(404);
  });

  it('shows the photo again in the edit form', async () => {
    const { page } = session();
    const filters = students.locator('.resource-filter-bar');
    await (await revealFilter(filters, '姓名')).fill(name);
    await filters.getByRole('button', { name: buttonText('查询') }).click();
    await expect.poll(() => tableRows(students).count()).toBe(1);
    await rowAction(tableRows(students).first(), '编辑');
    const form = drawer(page, '编辑学生');
    await form.waitFor();
    const photo = formItem(form, '人脸照片').locator('.ant-upload-list-item-done img');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await screenshot(page, 'student-02-edit-photo');
  });
});
