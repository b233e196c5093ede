/**
 * English layout (issue 26): at 1366 and 1920 px, in English and in Chinese, the filter bar's buttons
 * never cover a filter, no label or menu entry breaks inside a word, and no tag is cut by its column.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../support/browser';
import { loginThroughForm, openFromMenu, selectGroup, switchLanguage, waitForTable } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The pages where the Reset button covered a filter (Province, City, School, Class). */
const PAGES = [
  { group: 'sales', index: 'schoolManage' },
  { group: 'finance', index: 'refundManage' },
  { group: 'users', index: 'studentInfo' },
] as const;
const WIDTHS = [1366, 1920] as const;

/** Filter items and bar buttons of the visible pane whose boxes intersect, as "a × b". */
function overlapsInFilterBar(page: Page, index: string): Promise<string[]> {
  return page.locator(`.tab-pane[data-tab="${index}"] .resource-filter-bar`).first().evaluate((bar) => {
    const boxes = [
      ...[...bar.querySelectorAll<HTMLElement>('.ant-form-item')].map((el) => ({ name: el.querySelector('label')?.textContent ?? 'filter', el })),
      ...[...bar.querySelectorAll<HTMLElement>('.resource-filter-buttons .ant-btn')].map((el) => ({ name: `button ${el.textContent ?? ''}`, el })),
    ]
      .map(({ name, el }) => ({ name, rect: el.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0 && rect.height > 0);
    const found: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        // One pixel of touching borders is not covering.
        if (x > 1 && y > 1) found.push(`${a.name} × ${b.name} (${Math.round(x)} px)`);
      }),
    );
    return found;
  });
}

/** Texts under `selector` in which a word is drawn on two lines (each word's range gives one box per line). */
function wordsBrokenInside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      if (el.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        // A word: a run of letters, or of CJK characters (a Chinese label should not wrap at all here).
        for (const match of text.matchAll(/[A-Za-z\u4e00-\u9fff]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`${match[0]} in "${el.textContent?.trim()}"`);
        }
      }
    }
    return broken;
  }, selector);
}

/** Tags of the visible pane's table drawn past their cell's content box. */
function clippedTags(page: Page, index: string): Promise<string[]> {
  return page.locator(`.tab-pane[data-tab="${index}"] .ant-table-tbody`).first().evaluate((body) => {
    const clipped: string[] = [];
    for (const tag of body.querySelectorAll<HTMLElement>('td .ant-tag')) {
      const cell = tag.closest('td')!;
      const right = cell.getBoundingClientRect().right - parseFloat(getComputedStyle(cell).paddingRight);
      if (tag.getBoundingClientRect().right > right + 1 || tag.scrollWidth > tag.clientWidth + 1) clipped.push(tag.textContent ?? '');
    }
    return [...new Set(clipped)];
  });
}

describe('layout in English and Chinese at 1366 and 1920 px', () => {
  const session = journey('layout', () => browser);

  it('logs in as admin', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
  });

  for (const language of ['English', '简体中文'] as const) {
    it(`in ${language}: filters, labels, menu entries and tags are drawn whole`, async () => {
      const { page } = session();
      await switchLanguage(page, language);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: width === 1366 ? 768 : 1080 });
        for (const { group, index } of PAGES) {
          const pane = await openFromMenu(page, group, index);
          await waitForTable(pane);
          const where = `${index} at ${width} px in ${language}`;
          expect(await overlapsInFilterBar(page, index), where).toEqual([]);
          expect(await wordsBrokenInside(page, `.tab-pane[data-tab="${index}"] .resource-filter-bar .ant-form-item-label label`), where).toEqual([]);
          expect(await clippedTags(page, index), where).toEqual([]);
          if (width === 1366) await screenshot(page, `layout-${index}-${language === 'English' ? 'en' : 'zh'}-${width}`);
        }
        // Every menu entry of every group, words whole.
        for (const group of await page.locator('.group-column [data-group]').evaluateAll((els) => els.map((el) => el.getAttribute('data-group') ?? ''))) {
          await selectGroup(page, group);
          expect(await wordsBrokenInside(page, '.frame-column .frame-item-title'), `menu ${group} at ${width} px in ${language}`).toEqual([]);
        }
      }
    });
  }
});
