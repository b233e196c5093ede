/**
 * Accessibility (issue 26): axe-core's WCAG 2 A and AA rules over the login page, the shell and the
 * wall display (zh-CN), with no critical or serious violation (every menu page is audited in
 * accessibility-pages-N.spec.ts); and a list page used with the keyboard alone: filter, open a record,
 * edit and save it, close the tab.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, searchRows } from '../support/api';
import { launchBrowser } from '../support/browser';
import { seriousViolations } from '../support/audit';
import { columnTexts, drawer, loginThroughForm, openTabs, pane, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('axe-core WCAG 2 A/AA: no critical or serious violation', () => {
  const session = journey('accessibility', () => browser);

  it('on the login page', async () => {
    const { page } = session();
    await page.goto('/login');
    await page.getByTestId('captcha-image').locator('img[src^="data:image/"]').waitFor();
    expect(await seriousViolations(page, '/login')).toEqual([]);
  });

  it('on the home page with the shell around it, and on the wall display', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    await page.getByTestId('pending-work').waitFor();
    const found = await seriousViolations(page, 'index');
    // The wall display is drawn over the whole window, not in a tab. The other menu pages are audited
    // in slices (accessibility-pages-N.spec.ts, support/audit.ts).
    await page.goto('/displayLargeScreen');
    await page.getByTestId('large-screen').waitFor();
    found.push(...(await seriousViolations(page, 'displayLargeScreen')));
    expect(found).toEqual([]);
  });
});

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focused element matches `selector`: what the
 * keyboard reaches this way, a keyboard user reaches. Fails after `limit` presses.
 */
async function tabTo(page: Page, selector: string, { backwards = false, limit = 120 } = {}): Promise<void> {
  for (let pressed = 0; pressed < limit; pressed++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Tab did not reach ${selector} in ${limit} presses; focus is on ${focused}`);
}

describe('admin: a list page with the keyboard alone', () => {
  const session = journey('keyboard', () => browser);
  const teamName = `键盘团队${Date.now() % 1_000_000}`;
  const renamed = `${teamName}改`;
  let token: string;
  let teams: Locator;

  beforeAll(async () => {
    token = await apiLogin('admin');
    await call('/api/SalesTeam/Add', { method: 'POST', body: JSON.stringify({ name: teamName }) }, token);
  });
  afterAll(async () => {
    if (!token) return;
    const { items } = await searchRows<{ id: number }>(token, 'SalesTeam', 'salesTeam', { name: teamName });
    if (items.length > 0) await call('/api/SalesTeam/BatchDelete', { method: 'POST', body: JSON.stringify(items.map((item) => item.id)) }, token);
  });

  it('filters the list by typing a name and pressing Enter', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    await page.goto('/salesTeam');
    teams = pane(page, 'salesTeam');
    await waitForTable(teams);
    await tabTo(page, '.tab-pane[data-tab="salesTeam"] .resource-filter-bar input[id$="_name"]');
    await page.keyboard.type(teamName);
    await page.keyboard.press('Enter');
    await expect.poll(() => columnTexts(teams, '团队名称')).toEqual([teamName]);
  });

  it('opens the record read-only from its first cell with Enter, and Escape closes it', async () => {
    const { page } = session();
    await tabTo(page, '.tab-pane[data-tab="salesTeam"] .record-view-link');
    await page.keyboard.press('Enter');
    const view = page.locator('.ant-drawer-open');
    await expect.poll(() => view.locator('.ant-drawer-body').textContent()).toContain(teamName);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });
  });

  it('edits the record and saves it with Enter on 保存', async () => {
    const { page } = session();
    await tabTo(page, '.tab-pane[data-tab="salesTeam"] .ant-table-row button');
    // The first row button of the row is 编辑 (the table's order: edit, then the others).
    expect((await page.evaluate(() => document.activeElement?.textContent ?? '')).replace(/\s/g, '')).toBe('编辑');
    await page.keyboard.press('Enter');
    const form = drawer(page, '编辑销售团队');
    await form.waitFor();
    await tabTo(page, '.ant-drawer-open input[id$="name"]');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe(teamName);
    await page.keyboard.press('End');
    await page.keyboard.type('改');
    await tabTo(page, '.ant-drawer-open .ant-drawer-footer button.ant-btn-primary');
    await page.keyboard.press('Enter');
    await toast(page, '已保存').waitFor();
    await form.waitFor({ state: 'hidden' });
    await expect.poll(() => columnTexts(teams, '团队名称')).toEqual([renamed]);
  });

  it('closes the tab with Delete on the focused tab', async () => {
    const { page } = session();
    await tabTo(page, '.tab-strip [role="tab"][aria-selected="true"]', { backwards: true, limit: 200 });
    await page.keyboard.press('Delete');
    await expect.poll(() => openTabs(page)).toEqual(['index']);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/index');
  });
});
