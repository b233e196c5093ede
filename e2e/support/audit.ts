/**
 * The accessibility audit (issue 26): axe-core's WCAG 2 A and AA rules, no critical or serious
 * violation. Every menu page an admin opens is audited in slices, one spec file each
 * (specs/accessibility-pages-N.spec.ts), so that the suite's two workers share the audit's minutes.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser';
import { loginThroughForm, openFromMenu, pane, tabMenu, visibleMenu } from './console';
import { journey } from './journey';

/**
 * One line per critical or serious violation: page, rule, impact, and the first offending nodes.
 * `pane` limits the audit to one tab's page (the shell around it is audited on the home page), and
 * only a table's first rows are read: its other rows are drawn by the same code, and axe's contrast
 * rule costs time per cell. Legacy mode runs axe in the page itself (no helper page per audit): the
 * console has no frames for it to reach.
 */
export async function seriousViolations(page: Page, where: string, pane?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa']).exclude('.ant-table-tbody > tr:nth-child(n+5)');
  if (pane) builder = builder.include(`.tab-pane[data-tab="${pane}"]`);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => {
      // The element's own markup too: one gone from the page by the time axe names it is called ":root".
      const targets = violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')} ${node.html.slice(0, 160)}${node.failureSummary ? ` (${node.failureSummary.replace(/\s+/g, ' ').slice(0, 160)})` : ''}`);
      return `${where}: ${violation.id} [${violation.impact}] ×${violation.nodes.length}: ${targets.join(' | ')}`;
    });
}

const MOVING = '[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]';

/** antd's list pages draw their rows after the search; the audit waits for every spinner to stop. */
async function settle(page: Page, index: string): Promise<void> {
  const content = pane(page, index);
  await content.waitFor({ state: 'visible' });
  await page.waitForFunction(
    (selector) => {
      const root = document.querySelector(selector);
      return root !== null && root.querySelector('.ant-spin-spinning, .page-spinner, .tab-pane-loading') === null && root.childElementCount > 0;
    },
    `.tab-pane[data-tab="${index}"]`,
    { timeout: 20_000, polling: 100 },
  );
  // Motions fading in would be audited half-transparent.
  await page.waitForFunction((selector) => document.querySelector(selector) === null, MOVING, { timeout: 3_000, polling: 50 }).catch(() => undefined);
}

/**
 * Pages the slices leave out: the home tab (audited with the shell in accessibility.spec.ts; it
 * cannot be closed) and the wall display, drawn over the whole window rather than in a tab (audited
 * there too).
 */
const AUDITED_ELSEWHERE = new Set(['index', 'displayLargeScreen']);

/**
 * Declares slice `slice` (1-based) of `slices`: the menu pages at positions slice-1, slice-1+slices, …
 * of the admin's menu in its order, each opened from the menu, settled, audited within its pane and
 * closed. The slices together audit every page: each file reads the same menu.
 */
export function describeMenuAudit(slice: number, slices: number): void {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe(`axe-core WCAG 2 A/AA: no critical or serious violation on the menu pages, slice ${slice} of ${slices}`, () => {
    const session = journey(`accessibility-pages-${slice}`, () => browser);

    it('on every page of the slice an admin opens from the menu', async () => {
      const { page } = session();
      await loginThroughForm(page, 'admin');
      await page.getByTestId('pending-work').waitFor();
      const pages = [...(await visibleMenu(page))].flatMap(([group, frames]) => frames.filter((index) => !AUDITED_ELSEWHERE.has(index)).map((index) => ({ group, index })));
      // The menu an admin sees is every page the console has built: a short one means a broken menu.
      expect(pages.length).toBeGreaterThan(50);
      const mine = pages.filter((_, position) => position % slices === slice - 1);
      const found: string[] = [];
      for (const { group, index } of mine) {
        await openFromMenu(page, group, index);
        await settle(page, index);
        found.push(...(await seriousViolations(page, index, index)));
        // One page at a time: the audit reads the document, and closed tabs keep it small.
        await tabMenu(page, index, '关闭');
      }
      expect(found).toEqual([]);
    }, 600_000);
  });
}
