/**
 * Operations (issue 13): as admin, reply to a parent's feedback and see the menu badge of unanswered
 * feedback drop; flag a notice "show on home page" and find it on the home page; answer a
 * questionnaire through its public link and find the answer in its results.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, formItem, loginThroughForm, openFromMenu, pane, rowAction, selectGroup, tabMenu, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
let adminToken: string;
const stamp = Date.now().toString(36);
const feedbackText = `考勤推送收不到-${stamp}`;
const noticeTitle = `寒假安排通知-${stamp}`;
const questionnaireTitle = `午睡安排调查-${stamp}`;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = await apiLogin('admin');
  // A parent's feedback and a notice of today, added as the app and an editor would.
  const schools = await call<{ items: { id: number }[] }>('/api/School/Search', { method: 'POST', body: JSON.stringify({ pageIndex: 1, pageSize: 1 }) }, adminToken);
  await call('/api/UserFeedback/Add?view=userBack', { method: 'POST', body: JSON.stringify({ schoolId: schools.items[0]!.id, parentName: '测试家长', phoneNum: '13800005555', category: 2, content: feedbackText }) }, adminToken);
  const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
  await call('/api/SysNotice/Add?view=appInform', { method: 'POST', body: JSON.stringify({ title: noticeTitle, audience: 1, content: '寒假自 1 月 18 日起', startDate: today, endDate: today }) }, adminToken);
  await call(
    '/api/Questionnaire/Add?view=questionnaire',
    {
      method: 'POST',
      body: JSON.stringify({
        title: questionnaireTitle,
        startDate: today,
        endDate: today,
        audience: 1,
        questions: [
          { title: '孩子午睡时长是否合适？', type: 1, isRequired: true, options: '偏短\n合适\n偏长' },
          { title: '希望午睡后安排什么活动？', type: 2, isRequired: true, options: '户外\n阅读\n点心' },
        ],
      }),
    },
    adminToken,
  );
});
afterAll(async () => {
  await browser?.close();
});

const modal = (page: Page, title: string): Locator => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/** The count on the userBack entry of the Operations menu (0 when no badge). */
async function feedbackBadge(page: Page): Promise<number> {
  const badge = page.locator('.frame-column [data-frame="userBack"] .ant-scroll-number');
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.first().getAttribute('title')) ?? (await badge.first().textContent()));
}

describe('admin: feedback replies and home-page notices', () => {
  const session = journey('operations-admin', () => browser);

  it('replies to a feedback: the parent sees the reply and the badge drops by one', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const feedback = await openFromMenu(page, 'operations', 'userBack');
    await waitForTable(feedback);
    await expect.poll(() => feedbackBadge(page)).toBeGreaterThan(0);
    const before = await feedbackBadge(page);
    const row = tableRows(feedback).filter({ hasText: feedbackText });
    await row.waitFor();
    await rowAction(row, '回复');
    const form = modal(page, '回复');
    await form.waitFor();
    await formItem(form, '回复内容').locator('textarea').fill('已修复推送，请更新 App 后重试');
    await screenshot(page, 'operations-01-reply');
    await form.getByRole('button', { name: buttonText('确定') }).click();
    await toast(page, '回复已完成').waitFor();
    await expect.poll(async () => (await row.locator('.ant-tag').allInnerTexts()).includes('已回复')).toBe(true);
    await expect.poll(() => feedbackBadge(page)).toBe(before - 1);
    await screenshot(page, 'operations-02-replied');
  });

  it('flags a notice for the home page, and the home page lists it', async () => {
    const { page } = session();
    const notices = await openFromMenu(page, 'operations', 'appInform');
    await waitForTable(notices);
    const row = tableRows(notices).filter({ hasText: noticeTitle });
    await row.waitFor();
    await row.locator('.ant-switch').click();
    await expect.poll(() => row.locator('.ant-switch').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'operations-03-flagged');

    await selectGroup(page, 'home');
    await page.locator('.frame-column [data-frame="index"]').click();
    const home = pane(page, 'index');
    await home.waitFor({ state: 'visible' });
    const listed = home.getByTestId('home-notices').locator('.ant-list-item').filter({ hasText: noticeTitle });
    // The home tab was kept open since the login: reload it through its tab menu.
    await tabMenu(page, 'index', '刷新');
    await listed.waitFor();
    await listed.scrollIntoViewIfNeeded();
    await screenshot(page, 'operations-04-home');
  });

  it('answers a questionnaire through its public link, and its results count the answer', async () => {
    const { page } = session();
    const questionnaires = await openFromMenu(page, 'operations', 'questionnaire');
    await waitForTable(questionnaires);
    const row = tableRows(questionnaires).filter({ hasText: questionnaireTitle });
    await row.waitFor();
    await rowAction(row, '结果');
    const drawer = page.locator('.ant-drawer').filter({ hasText: questionnaireTitle });
    const link = drawer.getByTestId('questionnaire-link').locator('a');
    await link.waitFor();
    const address = await link.getAttribute('href');

    // A respondent opens the link in a browser without a session.
    const respondent = await browser.newContext();
    const form = await respondent.newPage();
    await form.goto(address!);
    await form.getByTestId('survey-form').waitFor();
    await form.getByRole('radio', { name: '合适' }).check();
    await form.getByRole('checkbox', { name: '阅读' }).check();
    await screenshot(form, 'operations-05-survey');
    await form.getByRole('button', { name: buttonText('提交') }).click();
    await form.getByText('提交成功，感谢您的参与！').waitFor();
    await respondent.close();

    await drawer.locator('.ant-drawer-close').click();
    await rowAction(row, '结果');
    await expect.poll(async () => (await drawer.locator('.ant-statistic-content-value').innerText()).trim()).toBe('1');
    await expect.poll(() => drawer.getByTestId('questionnaire-question').count()).toBe(2);
    await screenshot(page, 'operations-06-results');
  });
});
