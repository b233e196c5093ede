/**
 * The parent's side end to end (issue 28): a parent buys the safe-campus service through the app
 * channel, the gate (the terminal simulator's signed intake call) recognises the child, the arrival
 * notice reaches the parent's inbox, and the console shows it among the notice receipts of the parent's record on parentUser.
 */
import { APP_PATHS, IDEMPOTENCY_KEY_HEADER, type AppInbox, type AppOrder } from '@campus/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiLogin, call, giveParentAppPassword, md5, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, drawer, loginThroughForm, openFromMenu, revealFilter, rowAction, tableRows, waitForTable } from '../support/console';
import { journey } from '../support/journey';
import { registerTerminal, sendEvents } from '../support/terminal';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Demo seed: the gate of the first demo school. */
const GATE = 'G31001';
const APP_PASSWORD = 'Parent@2026';

/** A parent app call: the parent's token, and a fresh Idempotency-Key on writes. */
function asParent<T>(token: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}` };
  return call<T>(path, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }, token);
}

describe('a parent in service is told of an arrival', () => {
  const session = journey('parent-app-arrival', () => browser);
  let parent: { id: number; name: string; phoneNum: string };
  let student: { id: number; name: string };
  let parentToken: string;

  it('buys the service for the child through the app channel', async () => {
    const admin = await apiLogin('admin');
    const device = (await searchRows<{ schoolId: number }>(admin, 'Device', 'deviceInformation', { serialNumber: GATE })).items[0]!;
    const candidates = await searchRows<{ id: number; version: number; name: string; phoneNum: string; studentIds: number[] }>(admin, 'Parent', 'parentUser', { schoolId: device.schoolId, pageSize: 50 });
    const row = candidates.items.find((candidate) => candidate.studentIds.length === 1)!;
    // Support gives the parent an app password on parentUser, as the console does.
    await giveParentAppPassword(admin, row.id, APP_PASSWORD);
    parent = row;
    const signedIn = await call<{ token: string }>(APP_PATHS.signIn, { method: 'POST', body: JSON.stringify({ phoneNum: row.phoneNum, password: md5(APP_PASSWORD) }) });
    parentToken = signedIn.token;
    const [child] = await asParent<{ id: number; name: string }[]>(parentToken, APP_PATHS.children);
    student = child!;
    const [service] = await asParent<{ studentId: number; chargeItems: { id: number }[] }[]>(parentToken, APP_PATHS.services);
    const order = await asParent<AppOrder>(parentToken, APP_PATHS.buyService, { studentId: service!.studentId, chargeItemId: service!.chargeItems[0]!.id });
    expect(order.outcome).toBe('paid');
    const [after] = await asParent<{ state: string }[]>(parentToken, APP_PATHS.services);
    expect(after!.state).toBe('inService');
  });

  it("is told in the app's inbox when the gate recognises the child", async () => {
    const admin = await apiLogin('admin');
    const terminal = await registerTerminal(admin, GATE);
    const serial = 2_000_000 + (Date.now() % 1_000_000);
    const answer = await sendEvents(terminal, [{ serial, personKind: 1, personId: student.id, direction: 1, recognizedAt: new Date().toISOString(), similarity: 95.1, temperature: 36.5 }]);
    expect(answer).toEqual({ accepted: 1, duplicates: 0 });
    await expect
      .poll(async () => (await asParent<AppInbox>(parentToken, `${APP_PATHS.inbox}?page=1&size=5`)).rows.filter((notice) => notice.studentId === student.id && notice.kind === 1).length)
      .toBeGreaterThan(0);
    const inbox = await asParent<AppInbox>(parentToken, `${APP_PATHS.inbox}?page=1&size=5`);
    expect(inbox.rows[0]!.content).toContain(student.name);
    expect(inbox.unread).toBeGreaterThan(0);
  });

  it("shows the notice among the receipts of parentUser in the console", async () => {
    const admin = await apiLogin('admin');
    const receipts = await searchRows<{ parentId: number; studentId: number }>(admin, 'ParentNotice', 'parentUser', { parentId: parent.id });
    expect(receipts.items.some((receipt) => receipt.studentId === student.id)).toBe(true);

    const { page } = session();
    await loginThroughForm(page, 'admin');
    const parents = await openFromMenu(page, 'users', 'parentUser');
    await waitForTable(parents);
    // The receipts are a tab of the parent's own record, listing that parent's notices only.
    const filters = parents.locator('.resource-filter-bar');
    await (await revealFilter(filters, '手机号')).fill(parent.phoneNum);
    await filters.getByRole('button', { name: buttonText('查询') }).click();
    await expect.poll(() => tableRows(parents).count()).toBe(1);
    await rowAction(tableRows(parents).first(), '编辑');
    const record = drawer(page, '编辑家长');
    await record.waitFor();
    await record.getByRole('tab', { name: '服务' }).click();
    const services = record.getByRole('tabpanel', { name: '服务' });
    await waitForTable(services);
    await expect.poll(() => tableRows(services).filter({ hasText: student.name }).count()).toBeGreaterThan(0);
    await record.getByRole('tab', { name: '通知回执' }).click();
    const receiptTab = record.getByRole('tabpanel', { name: '通知回执' });
    await waitForTable(receiptTab);
    const receipt = tableRows(receiptTab).filter({ hasText: student.name });
    await expect.poll(() => receipt.count()).toBeGreaterThan(0);
    expect(await receipt.first().textContent()).toContain('入园通知');
    await screenshot(page, 'parent-app-01-receipt');
  });
});

describe("the demo's parents who play the app", () => {
  it('had their children’s gate notices pushed to the devices they registered, listed on pushOutbox', async () => {
    const admin = await apiLogin('admin');
    // The seed's own pushes: the journeys' recognitions may push to the same devices later.
    const pushes = await searchRows<{ token: string }>(admin, 'PushDelivery', 'pushOutbox', { pageSize: 100, createdAtTo: inject('seededBefore') });
    // The seed registers the players' devices before it makes the notices of the newest recognitions.
    expect(pushes.items.filter((push) => push.token.startsWith('demo-device-')).length).toBeGreaterThan(0);
  });
});
