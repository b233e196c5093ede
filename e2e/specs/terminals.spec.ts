/**
 * Terminals (issue 9), as a device and an operator meet them: a gate registered on equipmentManage
 * signs an arrival with a snapshot and the operator finds it at the top of identifySuccess with its
 * thumbnail; an operator queues a reboot and sees it delivered once the device's heartbeat has run it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotPng } from '@campus/contract/sample-snapshot';
import { apiLogin, searchRows } from '../support/api';
import { launchBrowser, screenshot } from '../support/browser';
import { buttonText, drawer, formItem, loginThroughForm, openFromMenu, rowAction, tableRows, toast, waitForTable } from '../support/console';
import { journey } from '../support/journey';
import { acknowledge, heartbeat, registerTerminal, sendEvents, type TestTerminal } from '../support/terminal';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Demo seed: the gate of the first demo school, registered as a terminal. */
const GATE = 'G31001';

describe('a gate reports an arrival', () => {
  const session = journey('terminal-arrival', () => browser);
  let terminal: TestTerminal;
  let student: { id: number; name: string };

  it('is registered with a secret and its signed arrival with a snapshot is accepted', async () => {
    const admin = await apiLogin('admin');
    terminal = await registerTerminal(admin, GATE);
    const device = (await searchRows<{ schoolId: number }>(admin, 'Device', 'deviceInformation', { serialNumber: GATE })).items[0]!;
    student = (await searchRows<{ id: number; name: string }>(admin, 'Student', 'studentInfo', { schoolId: device.schoolId })).items[0]!;
    // A serial of this run: far above the seeded ones, below the 32-bit limit.
    const serial = 1_000_000 + (Date.now() % 1_000_000);
    const answer = await sendEvents(
      terminal,
      [{ serial, personKind: 1, personId: student.id, direction: 1, recognizedAt: new Date().toISOString(), similarity: 93.5, temperature: 36.6 }],
      new Map([[serial, snapshotPng(student.id)]]),
    );
    expect(answer).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('shows the arrival first on identifySuccess, with its thumbnail', async () => {
    const { page } = session();
    await loginThroughForm(page, 'admin');
    const records = await openFromMenu(page, 'maintenance', 'identifySuccess');
    await waitForTable(records);
    const first = tableRows(records).first();
    await expect.poll(() => first.textContent()).toContain(student.name);
    expect(await first.textContent()).toContain(GATE);
    const thumbnail = first.locator('img').first();
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'terminals-01-arrival');
  });
});

describe('an operator reboots a gate', () => {
  const session = journey('terminal-reboot', () => browser);
  let terminal: TestTerminal;

  it('queues a reboot on the terminal; the device is handed it at its heartbeat and says it arrived', async () => {
    const { page } = session();
    terminal = await registerTerminal(await apiLogin('admin'), GATE);
    await loginThroughForm(page, 'admin');
    const terminals = await openFromMenu(page, 'maintenance', 'equipmentManage');
    await waitForTable(terminals);
    await rowAction(tableRows(terminals).filter({ hasText: GATE }), '编辑');
    const record = drawer(page, '编辑终端');
    await record.waitFor();
    await record.getByRole('tab', { name: '远程指令' }).click();
    const commands = record.getByRole('tabpanel', { name: '远程指令' });
    await waitForTable(commands);
    await commands.getByRole('button', { name: buttonText('新增') }).click();
    const form = drawer(page, '新增远程指令');
    await form.waitFor();
    await formItem(form, '指令').getByText('重启', { exact: true }).click();
    await form.getByRole('button', { name: buttonText('保存') }).click();
    await toast(page, '已新增').waitFor();
    await form.waitFor({ state: 'hidden' });
    const reboot = tableRows(commands).filter({ hasText: '重启' }).first();
    await expect.poll(() => reboot.textContent()).toContain('排队中');

    const answer = await heartbeat(terminal);
    const handed = answer.commands.find((command) => command.kind === 'reboot');
    expect(handed).toBeDefined();
    await acknowledge(terminal, { commandId: handed!.id, status: 'delivered', resultCode: 0 });

    await commands.getByRole('button', { name: '刷新' }).click();
    await expect.poll(() => reboot.textContent()).toContain('已送达');
    await screenshot(page, 'terminals-02-reboot-delivered');
  });
});
