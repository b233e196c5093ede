/**
 * Live (issue 31): the shell's badges move when a change is made elsewhere, without a reload; the
 * Overview page (systemView) and the wall display (displayLargeScreen) draw the caller's figures,
 * the display fits any screen whole and updates its charts in place when a figure moves.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, call, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { loginThroughForm, openFromMenu, selectGroup } from '../support/console';
import { journey } from '../support/journey';

let browser: Browser;
let adminToken: string;
let agentToken: string;

beforeAll(async () => {
  browser = await launchBrowser();
  [adminToken, agentToken] = [await apiLogin('admin'), await apiLogin('agent1')];
});
afterAll(async () => {
  await browser?.close();
});

/** The count on a frame's menu entry (0 when no badge). */
async function badgeOf(page: Page, frame: string): Promise<number> {
  const badge = page.locator(`.frame-column [data-frame="${frame}"] .ant-scroll-number`);
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.first().getAttribute('title')) ?? (await badge.first().textContent()));
}

/** Every text of the wall display fits its box: nothing cut off or spilling over its neighbour. */
async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.screen-tile-value, .screen-tile-label, .screen-panel-title, .screen-title, .screen-clock, .screen-big-value')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => element.textContent ?? ''),
  );
}

/** The stage lies wholly inside the window (letterboxed, never cropped), unless the window is narrower than the readable minimum. */
async function stageBox(page: Page) {
  return page.evaluate(() => {
    const box = document.querySelector('.screen-frame')!.getBoundingClientRect();
    return { left: box.left, top: box.top, right: box.right, bottom: box.bottom, width: window.innerWidth, height: window.innerHeight };
  });
}

describe('agent1: live badges, the Overview and the wall display', () => {
  const session = journey('live-agent', () => browser);

  it('shows today\'s figures on the home page, pushed live', async () => {
    const { page } = session();
    await loginThroughForm(page, 'agent1');
    await page.locator('[data-testid="home-figures"] [data-figure="schools"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="home-figures"] [data-testid="live-status"]').getAttribute('data-live')).toBe('1');
  });

  it('moves the refund badge when a refund is applied elsewhere, without a reload', async () => {
    const { page } = session();
    await selectGroup(page, 'finance');
    await page.locator('.frame-column [data-frame="refundManage"]').waitFor();
    const before = await badgeOf(page, 'refundManage');
    const { items } = await searchRows<{ id: number; amount: number; refundedAmount: number }>(agentToken, 'PaymentRecord', 'payDetailManage', {});
    const payment = items.find((item) => item.amount > item.refundedAmount);
    if (!payment) throw new Error('agent1 has no payment left to refund');
    await page.evaluate(() => ((window as unknown as { __notReloaded: boolean }).__notReloaded = true));
    await call('/api/Refund/Add', { method: 'POST', body: JSON.stringify({ paymentId: payment.id, reason: 'live e2e' }) }, adminToken);
    // Pushed: well before the minute's poll.
    await expect.poll(() => badgeOf(page, 'refundManage'), { timeout: 5_000 }).toBe(before + 1);
    expect(await page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
  });

  it('draws the Overview (systemView) at 1366 and 1920 px, in Chinese and English', async () => {
    const { page } = session();
    const overview = await openFromMenu(page, 'home', 'systemView');
    await overview.locator('[data-figure="recognitions"]').waitFor();
    await overview.locator('[data-testid="report-chart"] canvas').waitFor();
    for (const [width, height] of [
      [1366, 768],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `live-system-view-${width}-zh`);
    }
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'en'));
    await page.reload();
    await page.locator('[data-testid="system-view"] [data-figure="recognitions"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="system-view"]').textContent()).toContain('Recognitions today');
    for (const [width, height] of [
      [1366, 768],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `live-system-view-${width}-en`);
    }
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'zh-CN'));
  });

  it('draws the wall display without the shell, whole on every screen, with no text cut', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto('/displayLargeScreen');
    await page.locator('[data-testid="large-screen"] [data-chart-ready="1"][data-testid="screen-hour-chart"]').waitFor();
    expect(await page.locator('.shell').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="large-screen"] [data-testid="live-status"]').getAttribute('data-live')).toBe('1');
    for (const [width, height] of [
      [3840, 2160],
      [1920, 1080],
      [1366, 768],
      [1280, 1024],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(300);
      const box = await stageBox(page);
      expect(box.left).toBeGreaterThanOrEqual(-0.5);
      expect(box.top).toBeGreaterThanOrEqual(-0.5);
      expect(box.right).toBeLessThanOrEqual(box.width + 0.5);
      expect(box.bottom).toBeLessThanOrEqual(box.height + 0.5);
      expect(await cutTexts(page)).toEqual([]);
      await screenshot(page, `live-large-screen-${width}x${height}`);
    }
    // English labels are longer; the stage is drawn at one size and scaled, so one window size tells.
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'en'));
    await page.reload();
    await page.locator('[data-testid="large-screen"] [data-chart-ready="1"][data-testid="screen-hour-chart"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="large-screen"]').textContent()).toContain('Recognitions today');
    expect(await cutTexts(page)).toEqual([]);
    await screenshot(page, 'live-large-screen-1280x1024-en');
    await page.evaluate(() => window.localStorage.setItem('campus-ops-locale', 'zh-CN'));
    await page.reload();
    await page.locator('[data-testid="large-screen"] [data-chart-ready="1"][data-testid="screen-hour-chart"]').waitFor();
  });

  it('updates the figures and charts in place when a figure moves', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 1920, height: 1080 });
    const students = page.locator('[data-figure="students"] .screen-tile-value');
    const before = Number((await students.textContent())!.replace(/\D/g, ''));
    // Mark the chart's canvas: a chart drawn anew would bring another element.
    await page.evaluate(() => ((document.querySelector('[data-testid="screen-hour-chart"] canvas') as unknown as { __mark: boolean }).__mark = true));
    const { items } = await searchRows<{ id: number }>(agentToken, 'School', 'schoolManage', {});
    await call('/api/Student/Add', { method: 'POST', body: JSON.stringify({ name: '实时测试学生', schoolId: items[0]!.id }) }, adminToken);
    await expect.poll(() => students.textContent().then((text) => Number(text!.replace(/\D/g, ''))), { timeout: 8_000 }).toBe(before + 1);
    expect(await page.evaluate(() => (document.querySelector('[data-testid="screen-hour-chart"] canvas') as unknown as { __mark?: boolean } | null)?.__mark)).toBe(true);
  });

  it('holds its frame rate while live updates arrive, and prints it', async () => {
    const { page } = session();
    await page.setViewportSize({ width: 1920, height: 1080 });
    // Frame times from requestAnimationFrame while the figures move (each Student/Add pushes `overview`).
    await page.evaluate(() => {
      const probe = { frames: [] as number[], running: true };
      (window as unknown as { __frames: typeof probe }).__frames = probe;
      const tick = (at: number) => {
        probe.frames.push(at);
        if (probe.running) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const students = page.locator('[data-figure="students"] .screen-tile-value');
    const before = Number((await students.textContent())!.replace(/\D/g, ''));
    const { items } = await searchRows<{ id: number }>(agentToken, 'School', 'schoolManage', {});
    const UPDATES = 8;
    for (let n = 0; n < UPDATES; n += 1) {
      await call('/api/Student/Add', { method: 'POST', body: JSON.stringify({ name: `帧率测试学生${n}`, schoolId: items[n % items.length]!.id }) }, adminToken);
      await page.waitForTimeout(600);
    }
    await expect.poll(() => students.textContent().then((text) => Number(text!.replace(/\D/g, ''))), { timeout: 8_000 }).toBe(before + UPDATES);
    await page.waitForTimeout(1_000);
    const frames = await page.evaluate(() => {
      const probe = (window as unknown as { __frames: { frames: number[]; running: boolean } }).__frames;
      probe.running = false;
      return probe.frames;
    });
    const gaps = frames.slice(1).map((at, i) => at - frames[i]!).sort((a, b) => a - b);
    const seconds = (frames.at(-1)! - frames[0]!) / 1000;
    const at = (q: number) => gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))]!;
    const long = gaps.filter((gap) => gap > 1000 / 60 * 1.5).length;
    console.log(
      `[large screen fps] ${UPDATES} live updates in ${seconds.toFixed(1)} s: ${(frames.length / seconds).toFixed(1)} fps, frame p50 ${at(0.5).toFixed(1)} ms, ` +
        `p95 ${at(0.95).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${gaps.at(-1)!.toFixed(1)} ms, ${long} frames over 25 ms of ${gaps.length}`,
    );
    expect(frames.length).toBeGreaterThan(0);
  });
});
