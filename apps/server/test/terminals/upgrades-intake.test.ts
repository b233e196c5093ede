import { INTAKE_PATHS } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { samplePackageUrl, schoolIdsOf } from '../resources/fixtures.js';
import { heartbeat, registerTerminal, signedCall, type TestTerminal } from './intake-support.js';

describe('upgrades through the signed intake', () => {
  let t: TestApp;
  let admin: string;
  let terminal: TestTerminal;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAs('admin');
    const [school] = await schoolIdsOf(t, 'agent1');
    terminal = await registerTerminal(t, admin, school!);
  });

  afterAll(async () => {
    await t.close();
  });

  const post = async (path: string, payload: Record<string, unknown>) => (await t.injectAs(admin, { method: 'POST', url: path, payload })).json();

  it('hands a released plan’s package out in the heartbeat answer and takes the device’s progress in order', async () => {
    const version = await post('/api/TerminalAppVersion/Add?view=versionManage', { terminalType: 1, versionNumber: '3.0.0', packageUrl: await samplePackageUrl(t), upgradeAlgorithm: 'full' });
    const plan = await post('/api/TerminalAppUpgrade/Add?view=upVersion', { name: 'gates', versionId: version.data.id, targetMode: 3, serialNumbers: terminal.serialNumber, devicesPerMinute: 1 });
    expect((await post('/api/TerminalAppUpgrade/Release?view=upVersion', { id: plan.data.id })).code).toBe(200);

    const answer = await heartbeat(t, terminal, { firmwareVersion: '2.5.0' });
    expect(answer.statusCode).toBe(200);
    const upgrade = answer.json().data.upgrade;
    expect(upgrade).toMatchObject({ version: '3.0.0', sha256: 'ab'.repeat(32), algorithm: 'full', url: expect.stringMatching(/^\/uploads\/.+\.bin\?e=\d+&s=/) });

    const progress = (state: string) => signedCall(t, terminal, INTAKE_PATHS.upgradeProgress, JSON.stringify({ targetId: upgrade.targetId, state }));
    expect((await progress('DOWNLOADING')).statusCode).toBe(200);
    expect((await progress('UPDATED')).statusCode).toBe(409);
    for (const state of ['DOWNLOADED', 'VERIFIED', 'UPDATING', 'UPDATED']) expect((await progress(state)).statusCode).toBe(200);
    const stored = (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppUpgrade/Get?id=${plan.data.id}&view=upVersion` })).json().data;
    expect(stored).toMatchObject({ state: 4, updatedCount: 1, targets: [{ state: 'UPDATED', fromVersion: '2.5.0' }] });
  });
});
