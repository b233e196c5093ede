/**
 * Steps of the console the journeys share, through the selectors the web app provides for tests:
 * data-group, data-frame, data-tab, data-tab-label and the data-testids.
 */
import type { Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { ACCOUNTS, type AccountName } from './api';
import { CAPTCHA_CODE } from './browser';

/** Logs in through the /login form: user name, password and the image code. */
export async function loginThroughForm(page: Page, account: AccountName): Promise<void> {
  const { userName, password } = ACCOUNTS[account];
  await page.goto('/login');
  // The captcha image has arrived once the <img> with its data URL is there.
  await page.getByTestId('captcha-image').locator('img[src^="data:image/"]').waitFor();
  await page.locator('#userName').fill(userName);
  await page.locator('#password').fill(password);
  await page.locator('#vcCode').fill(CAPTCHA_CODE);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL('**/index');
  await waitForMenu(page);
}

/** The side panel has drawn the groups from the fetched navigation tree. */
export async function waitForMenu(page: Page): Promise<void> {
  await page.locator('[data-group]').first().waitFor();
  await page.locator('.frame-column [data-frame]').first().waitFor();
}

/** The group keys in the left column, in order. */
export function groupKeys(page: Page): Promise<string[]> {
  return page.locator('.group-column [data-group]').evaluateAll((els) => els.map((el) => el.getAttribute('data-group') ?? ''));
}

export function selectedGroup(page: Page): Promise<string | null> {
  return page.locator('.group-column [data-group][aria-pressed="true"]').getAttribute('data-group');
}

/** Clicks a group and answers the route names of its second-level menu once it is drawn. */
export async function selectGroup(page: Page, key: string): Promise<string[]> {
  await page.locator(`.group-column [data-group="${key}"]`).click();
  await expect.poll(() => selectedGroup(page)).toBe(key);
  return frameKeys(page);
}

/** The route names of the second-level menu as shown. */
export function frameKeys(page: Page): Promise<string[]> {
  return page.locator('.frame-column [data-frame]').evaluateAll((els) => els.map((el) => el.getAttribute('data-frame') ?? ''));
}

/** Every visible menu entry, group key → route names, by clicking through the groups. */
export async function visibleMenu(page: Page): Promise<Map<string, string[]>> {
  const menu = new Map<string, string[]>();
  for (const key of await groupKeys(page)) menu.set(key, await selectGroup(page, key));
  return menu;
}

/** A tab's page (kept mounted while hidden). */
export const pane = (page: Page, index: string): Locator => page.locator(`.tab-pane[data-tab="${index}"]`);

/** The strip's tab of a page (the antd tab around its label). */
export const tabOf = (page: Page, index: string): Locator => page.locator('.tab-strip .ant-tabs-tab').filter({ has: page.locator(`[data-tab-label="${index}"]`) });

/** Open tabs, in strip order. */
export function openTabs(page: Page): Promise<string[]> {
  return page.locator('.tab-strip [data-tab-label]').evaluateAll((els) => els.map((el) => el.getAttribute('data-tab-label') ?? ''));
}

export function activeTab(page: Page): Promise<string | null> {
  return page.locator('.tab-strip .ant-tabs-tab-active [data-tab-label]').getAttribute('data-tab-label');
}

/** Waits until the strip shows exactly these tabs with this one active, and the URL follows. */
export async function expectTabs(page: Page, tabs: string[], active: string): Promise<void> {
  await expect.poll(() => openTabs(page)).toEqual(tabs);
  await expect.poll(() => activeTab(page)).toBe(active);
  await expect.poll(() => new URL(page.url()).pathname).toBe(`/${active}`);
  await pane(page, active).waitFor({ state: 'visible' });
}

/** Opens a page through the menu (group, then entry) and waits for its content. */
export async function openFromMenu(page: Page, group: string, index: string): Promise<Locator> {
  await selectGroup(page, group);
  await page.locator(`.frame-column [data-frame="${index}"]`).click();
  await expect.poll(() => activeTab(page)).toBe(index);
  const content = pane(page, index);
  await content.waitFor({ state: 'visible' });
  return content;
}

/**
 * A generic resource page in a pane has its answer on screen: table drawn, not loading. antd's
 * loading spinner wraps the table (`.ant-spin-spinning` is its ancestor, inside the wrapper), and
 * shows from the first paint of a page, whose search starts on mount. After a click that starts a
 * new search, poll for the expected rows instead: the spinner may not be up yet.
 */
export async function waitForTable(scope: Locator): Promise<void> {
  const wrapper = scope.locator('.ant-table-wrapper').first();
  await wrapper.locator('.ant-table').first().waitFor({ state: 'visible' });
  await expect.poll(() => wrapper.locator('.ant-spin-spinning').count()).toBe(0);
}

/**
 * The input of a form item by its label (antd puts the label text in the label's title). Forms
 * without a name give their inputs ids equal to the field names, which repeat between the filter
 * bars of open tabs and the drawer: so scope first, then find by label, never by id.
 */
export const formItem = (scope: Locator, label: string): Locator => scope.locator('.ant-form-item').filter({ has: scope.page().locator(`label[title="${label}"]`) });

/** Right-clicks a tab's label and picks an entry of its menu (刷新, 关闭, 关闭其他, 关闭全部). */
export async function tabMenu(page: Page, index: string, entry: string): Promise<void> {
  await page.locator(`.tab-strip [data-tab-label="${index}"]`).click({ button: 'right' });
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
  // The item's accessible name also holds its icon's label: match the visible text instead.
  await menu.getByRole('menuitem').filter({ hasText: new RegExp(`^\\s*${entry}\\s*$`) }).click();
  await menu.waitFor({ state: 'hidden' });
}

/** The text of antd's toasts currently shown. */
export const toast = (page: Page, text: string): Locator => page.locator('.ant-message-notice').filter({ hasText: text });

/**
 * A button's accessible name: antd puts a space between two CJK characters ("编 辑"), and an icon
 * in the button adds its own label first ("plus 新 增").
 */
export const buttonText = (text: string): RegExp => new RegExp(`^(?:[\\w-]+\\s+)?${[...text].join('\\s*')}\\s*$`);

/** The open drawer whose title is `title` (antd keeps closed ones in the DOM for a moment). */
export const drawer = (page: Page, title: string): Locator =>
  page.locator('.ant-drawer-open').filter({ has: page.locator('.ant-drawer-title', { hasText: title }) });

/** The rows of a pane's resource table (not antd's measure or placeholder rows). */
export const tableRows = (scope: Locator): Locator => scope.locator('.ant-table-tbody tr.ant-table-row');

/** The texts of one column of a pane's resource table, by its header, top to bottom. */
export function columnTexts(scope: Locator, header: string): Promise<string[]> {
  return scope
    .locator('.ant-table')
    .first()
    .evaluate((table, title) => {
      const headers = [...table.querySelectorAll('thead tr:last-child th')];
      const position = headers.findIndex((th) => th.textContent?.trim() === title);
      if (position < 0) throw new Error(`no column "${title}"`);
      return [...table.querySelectorAll('tbody tr.ant-table-row')].map((tr) => tr.children[position]?.textContent?.trim() ?? '');
    }, header);
}

/** Runs a row's action, inline or folded under 更多 (more than three actions fold). */
export async function rowAction(row: Locator, label: string): Promise<void> {
  const page = row.page();
  const inline = row.getByRole('button', { name: buttonText(label) });
  if ((await inline.count()) > 0) return inline.click();
  await row.getByRole('button', { name: buttonText('更多') }).hover();
  await page
    .locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu')
    .getByRole('menuitem')
    .filter({ hasText: new RegExp(`^\\s*${label}\\s*$`) })
    .click();
}

/**
 * Clicks a modal's OK button (a form's submit or a confirmation's) until its call leaves, and answers the
 * call's response. A click landing while the modal is still being drawn can be lost on a busy machine (seen
 * with two journeys at a time). Only the request's leaving is timed: once it has left, its answer is awaited
 * however slow, and the button is not clicked again.
 */
export async function submitUntilSent(button: Locator, path: string): Promise<Response> {
  const page = button.page();
  for (let attempt = 1; ; attempt += 1) {
    const sent = page.waitForRequest((candidate) => candidate.url().includes(path) && candidate.method() === 'POST', { timeout: 5_000 });
    await button.click();
    let request;
    try {
      request = await sent;
    } catch (error) {
      if (attempt === 4) throw error;
      continue;
    }
    const response = await request.response();
    if (!response) throw new Error(`POST ${request.url()} got no response`);
    return response;
  }
}

/**
 * Picks an option of the antd Select inside a form item. A click on an option can be lost on a busy
 * machine (the list still sliding in, or re-drawn by a search's answer: seen on CI, the select left
 * empty), so a pick the select does not show within a few seconds is made again, from a closed list.
 */
export async function pickOption(item: Locator, option: string, { search = false } = {}): Promise<void> {
  const shown = () => item.locator('.ant-select-content, .ant-select-selection-item').first().textContent();
  for (let attempt = 1; ; attempt += 1) {
    await item.locator('.ant-select').click();
    // A long list renders only the options in view: a searchable select is narrowed by typing first.
    if (search) await item.locator('input').fill(option);
    await item
      .page()
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${option}$`) })
      .click();
    try {
      await expect.poll(shown, { timeout: 5_000 }).toBe(option);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await item.page().keyboard.press('Escape');
    }
  }
}

/** Makes a filter of a bar visible, expanding the bar when the filter sits in its collapsed part. */
export async function revealFilter(filters: Locator, label: string): Promise<Locator> {
  const item = formItem(filters, label);
  if (!(await item.isVisible())) await filters.getByRole('button', { name: buttonText('展开') }).click();
  await item.waitFor({ state: 'visible' });
  return item.locator('input');
}

/** Switches the console's language through the header's switch. */
export async function switchLanguage(page: Page, label: 'English' | '简体中文'): Promise<void> {
  await page.getByTestId('language-switch').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu').getByRole('menuitem').filter({ hasText: label }).click();
}
