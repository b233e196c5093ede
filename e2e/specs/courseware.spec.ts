/**
 * Courseware end to end (issue 30): the demo's courseware on coursewareManage with the lengths the
 * server read from the files and their posters; the record drawer's player, whose signed address
 * answers byte ranges; a video added through the form (its length read by the server; the demo MP4 has
 * no picture frames, so the browser says it could not take a poster). An agent's scope is tested on
 * both databases (apps/server/test/operations/courseware.test.ts): agents hold no grant of the page by default.
 */
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, columnTexts, drawer, formItem, loginThroughForm, openFromMenu, pickOption, revealFilter, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A demo video (apps/server/src/seeds/demo-courseware.ts): 184 seconds, in the directory 火灾逃生. */
const DEMO_VIDEO = '火灾逃生演练';
const SCHOOL = '北京市海淀区阳光幼儿园';

/** An MP4 with a movie header of `seconds` and no frames: what the server reads a length from. */
function mp4(seconds: number): Buffer {
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(seconds * 1000, 16);
  mvhd.writeUInt32BE(0x10000, 20);
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1')), box('moov', box('mvhd', mvhd)), box('mdat', Buffer.alloc(2048))]);
}

describe('courseware: lengths and posters, a player by byte ranges, added through the form', () => {
  const session = journey('courseware', () => browser);
  let list: Locator;
  const title = `认识消防车-${Date.now().toString(36)}`;

  it('lists the demo courseware with the lengths read from their files and their posters', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    list = await openFromMenu(page, 'operations', 'coursewareManage');
    await waitForTable(list);
    const filters = list.locator('.resource-filter-bar');
    await (await revealFilter(filters, '课件名称')).fill(DEMO_VIDEO);
    await filters.getByRole('button', { name: buttonText('查询') }).click();
    await expect.poll(async () => (await columnTexts(list, '课件名称')).every((text) => text === DEMO_VIDEO) && (await tableRows(list).count()) > 0).toBe(true);
    expect(new Set(await columnTexts(list, '时长'))).toEqual(new Set(['3:04']));
    await expect.poll(() => tableRows(list).first().locator('img').count()).toBeGreaterThan(0);
    await screenshot(page, 'courseware-01-list');
  });

  it('plays the video in the record drawer through a signed address answering byte ranges', async () => {
    const { page } = session();
    await tableRows(list).first().locator('.record-view-link').click();
    const view = page.locator('.ant-drawer-open').filter({ has: page.getByTestId('record-view') });
    await view.waitFor();
    const player = view.getByTestId('record-player');
    await player.waitFor();
    const [src, poster] = await Promise.all([player.getAttribute('src'), player.getAttribute('poster')]);
    expect(src).toMatch(/^\/uploads\/\d{4}\/\d{2}\/[\w-]{22}\.mp4\?e=\d+&s=[\w-]{43}$/);
    expect(poster).toMatch(/^\/uploads\/.+\.png\?e=/);
    const ranged = await page.evaluate(async (address) => {
      const response = await fetch(address, { headers: { Range: 'bytes=0-99' } });
      return { status: response.status, range: response.headers.get('content-range'), length: (await response.arrayBuffer()).byteLength };
    }, src!);
    expect(ranged.status).toBe(206);
    expect(ranged.range).toMatch(/^bytes 0-99\/\d+$/);
    expect(ranged.length).toBe(100);
    await screenshot(page, 'courseware-02-player');
    await view.locator('.ant-drawer-close').click();
  });

  it('adds a video through the form: the server reads its length', async () => {
    const { page } = session();
    await list.getByRole('button', { name: buttonText('新增') }).click();
    const form = drawer(page, '新增课件');
    await form.waitFor();
    await formItem(form, '课件名称').locator('input').fill(title);
    await pickOption(formItem(form, '目录'), '消防安全', { search: true });
    await pickOption(formItem(form, '学校'), SCHOOL, { search: true });
    await formItem(form, '视频文件').locator('input[type="file"]').setInputFiles({ name: 'fire-engine.mp4', mimeType: 'video/mp4', buffer: mp4(75) });
    // No picture frames in this file: the browser says so and the poster may be uploaded by hand.
    await toast(page, '浏览器无法从该视频截取封面').waitFor();
    await screenshot(page, 'courseware-03-form');
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });
    const admin = await apiLogin('admin');
    const { items } = await searchRows<{ durationSeconds: number; schoolIdLabel: string }>(admin, 'EducationCourseware', 'coursewareManage', { title });
    expect(items.map((row) => [row.durationSeconds, row.schoolIdLabel])).toEqual([[75, SCHOOL]]);
  });
});
