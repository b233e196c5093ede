import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceClasses, devices, terminalUpgradeTargets } from '../../src/db/schema/index.js';
import type { MediaUrlSigner } from '../../src/platform/media-urls.js';
import type { IntakeDevice } from '../../src/terminals/intake-handlers.js';
import { upgradeHandlersOf } from '../../src/terminals/intake-handlers.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, samplePackageUrl, schoolIdsOf } from '../resources/fixtures.js';

const GATE = 1;
const ATTENDANCE = 2;
/** A model of this test's own, so no seeded device is ever a target. */
const MODEL = 'UPG-T1';

interface Answer {
  statusCode: number;
  body: { code: number; data: Record<string, unknown> & { errors?: { path: string; key: string }[] } };
}

describe('terminal upgrade plans', () => {
  let t: TestApp;
  let admin: string;
  let agent: string;
  let signer: MediaUrlSigner;
  /** Devices of MODEL: four in agent1's first school, one in agent2's; one attendance machine in agent1's school. */
  let ours: IntakeDevice[];
  let theirs: IntakeDevice;
  let attendance: IntakeDevice;

  const call = async (token: string, path: string, payload: Record<string, unknown>, view: string): Promise<Answer> => {
    const response = await t.injectAs(token, { method: 'POST', url: `${path}?view=${view}`, payload });
    return { statusCode: response.statusCode, body: response.json() };
  };
  const getPlan = async (id: number) =>
    (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppUpgrade/Get?id=${id}&view=upVersion` })).json().data as Record<string, unknown> & {
      targets: { id: number; deviceId: number; state: string; fromVersion: string | null }[];
    };

  const addVersion = async (extra: Record<string, unknown> = {}) => {
    const answer = await call(
      admin,
      '/api/TerminalAppVersion/Add',
      { terminalType: GATE, versionNumber: '2.0.0', packageUrl: await samplePackageUrl(t), upgradeAlgorithm: 'differential', ...extra },
      'versionManage',
    );
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    return Number(answer.body.data.id);
  };
  const addPlan = async (token: string, body: Record<string, unknown>) => {
    const answer = await call(token, '/api/TerminalAppUpgrade/Add', { name: 'rollout', devicesPerMinute: 100, ...body }, 'upVersion');
    expect(answer.statusCode, JSON.stringify(answer.body)).toBe(200);
    return Number(answer.body.data.id);
  };
  const transition = (token: string, verb: string, id: number) => call(token, `/api/TerminalAppUpgrade/${verb}`, { id }, 'upVersion');
  const releasedPlan = async (serials: IntakeDevice[], extra: Record<string, unknown> = {}, versionExtra: Record<string, unknown> = {}) => {
    const id = await addPlan(admin, {
      versionId: await addVersion(versionExtra),
      targetMode: 3,
      serialNumbers: serials.map((device) => device.serialNumber).join('\n'),
      ...extra,
    });
    expect((await transition(admin, 'Release', id)).statusCode).toBe(200);
    return id;
  };

  const pending = (device: IntakeDevice, firmware = '1.0.0') => t.db.transaction((tx) => upgradeHandlersOf().pendingUpgradeFor(tx, device, firmware, t.clock.now(), signer));
  const report = (device: IntakeDevice, targetId: number, state: string, message?: string) =>
    t.db.transaction((tx) => upgradeHandlersOf().reportUpgradeProgress(tx, device, { targetId, state: state as 'DOWNLOADING', message }, t.clock.now()));
  const statusOf = async (promise: Promise<unknown>) => promise.then(() => 200, (error: { httpStatus?: number }) => error.httpStatus);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.loginAs('admin');
    await grantEverything(t, 'agent1');
    agent = await t.loginAs('agent1');
    signer = await t.app.mediaUrls();
    const [agent1School] = await schoolIdsOf(t, 'agent1');
    const [agent2School] = await schoolIdsOf(t, 'agent2');
    await t.db.insert(deviceClasses).values({ type: GATE, name: 'Upgrade test gate', code: MODEL, snPrefix: 'UPG' });
    const rows = await t.db
      .insert(devices)
      .values([
        ...[1, 2, 3, 4].map((n) => ({ serialNumber: `UPG-A${n}`, deviceClassCode: MODEL, schoolId: agent1School!, state: 3 })),
        { serialNumber: 'UPG-B1', deviceClassCode: MODEL, schoolId: agent2School!, state: 3 },
        { serialNumber: 'UPG-ATT1', deviceClassCode: 'ATT-A8', schoolId: agent1School!, state: 3 },
      ])
      .returning({ id: devices.id, serialNumber: devices.serialNumber, schoolId: devices.schoolId });
    ours = rows.slice(0, 4) as IntakeDevice[];
    theirs = rows[4] as IntakeDevice;
    attendance = rows[5] as IntakeDevice;
  });

  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/TerminalAppVersion/Add', () => {
    it('takes the package’s SHA-256 and size from its upload record', async () => {
      const id = await addVersion({ canUpdatedVersions: '1.0.0，1.1.0\n1.0.0' });
      const row = (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppVersion/Get?id=${id}&view=versionManage` })).json().data;
      expect(row).toMatchObject({ sha256: 'ab'.repeat(32), packageSize: 1024, canUpdatedVersions: '1.0.0,1.1.0' });
    });

    it('refuses a typed hash, a package that was never uploaded, and a model of another terminal type', async () => {
      const typed = await call(admin, '/api/TerminalAppVersion/Add', { terminalType: GATE, versionNumber: '2', packageUrl: await samplePackageUrl(t), upgradeAlgorithm: 'full', sha256: 'ff' }, 'versionManage');
      expect(typed.statusCode).toBe(400);
      const notUploaded = await call(admin, '/api/TerminalAppVersion/Add', { terminalType: GATE, versionNumber: '2', packageUrl: 'https://example.com/fw.bin', upgradeAlgorithm: 'full' }, 'versionManage');
      expect(notUploaded.body.data.errors).toMatchObject([{ path: 'packageUrl', key: 'upgrade.packageNotUploaded' }]);
      const wrongModel = await call(
        admin,
        '/api/TerminalAppVersion/Add',
        { terminalType: ATTENDANCE, deviceCode: MODEL, versionNumber: '2', packageUrl: await samplePackageUrl(t), upgradeAlgorithm: 'full' },
        'versionManage',
      );
      expect(wrongModel.body.data.errors).toMatchObject([{ path: 'deviceCode', key: 'upgrade.modelNotOfType' }]);
    });
  });

  describe('Release', () => {
    it('resolves targets by model within the releaser’s scope, devices of the version’s terminal type only', async () => {
      const id = await addPlan(agent, { versionId: await addVersion(), targetMode: 2, targetDeviceClassCode: MODEL });
      expect((await transition(agent, 'Release', id)).statusCode).toBe(200);
      const plan = await getPlan(id);
      expect(plan).toMatchObject({ state: 2, targetCount: 4, waitingCount: 4, inProgressCount: 0 });
      expect(plan.targets.map((target) => target.deviceId).sort()).toEqual(ours.map((device) => device.id).sort());
      expect(plan.targets.every((target) => target.state === 'WAITING')).toBe(true);
      await transition(agent, 'Cancel', id);
    });

    it('refuses a listed device outside the scope or of another type, naming it, and a choice that reaches no device', async () => {
      const listed = await addPlan(agent, { versionId: await addVersion(), targetMode: 3, serialNumbers: `${ours[0]!.serialNumber},${theirs.serialNumber},${attendance.serialNumber}` });
      const refused = await transition(agent, 'Release', listed);
      expect(refused.statusCode).toBe(400);
      expect(refused.body.data.errors).toMatchObject([{ path: 'serialNumbers', key: 'upgrade.serialsNotTargetable' }]);
      expect(JSON.stringify(refused.body)).toContain(theirs.serialNumber);
      expect(JSON.stringify(refused.body)).toContain(attendance.serialNumber);
      expect((await getPlan(listed)).state).toBe(1);

      const [school] = await schoolIdsOf(t, 'agent1');
      const none = await addPlan(admin, { versionId: await addVersion({ terminalType: 4 }), targetMode: 1, targetSchoolId: school });
      expect((await transition(admin, 'Release', none)).body.data.errors).toMatchObject([{ path: 'targetSchoolId', key: 'upgrade.noTargets' }]);
    });

    it('needs the field its target mode names', async () => {
      const answer = await call(admin, '/api/TerminalAppUpgrade/Add', { name: 'x', versionId: await addVersion(), targetMode: 2, devicesPerMinute: 1 }, 'upVersion');
      expect(answer.body.data.errors).toMatchObject([{ path: 'targetDeviceClassCode', key: 'validation.requiredWhen' }]);
    });
  });

  describe('handing out packages', () => {
    it('hands at most devicesPerMinute devices in any minute, and the same target again on a retry', async () => {
      const id = await releasedPlan(ours.slice(0, 3), { devicesPerMinute: 2 });
      const first = await pending(ours[0]!);
      expect(first).toMatchObject({ version: '2.0.0', sha256: 'ab'.repeat(32), algorithm: 'differential', url: expect.stringMatching(/^\/uploads\/.+\.bin\?e=\d+&s=/) });
      t.clock.advance(30_000);
      expect(await pending(ours[1]!)).toBeDefined();
      expect(await pending(ours[2]!)).toBeUndefined();
      // A retry is no new hand-out: the same target, whatever the pace.
      expect((await pending(ours[0]!))?.targetId).toBe(first!.targetId);
      t.clock.advance(30_001);
      expect(await pending(ours[2]!)).toBeDefined();
      expect(await getPlan(id)).toMatchObject({ waitingCount: 0, inProgressCount: 3 });
      await transition(admin, 'Cancel', id);
    });

    it('hands nothing to a firmware the package does not update from, and counts a device already on the version as updated', async () => {
      const id = await releasedPlan(ours.slice(0, 2), {}, { canUpdatedVersions: '1.0.0' });
      expect(await pending(ours[0]!, '0.9.0')).toBeUndefined();
      expect(await pending(ours[0]!, '1.0.0')).toBeDefined();
      expect(await pending(ours[1]!, '2.0.0')).toBeUndefined();
      const plan = await getPlan(id);
      expect(plan.targets.find((target) => target.deviceId === ours[1]!.id)).toMatchObject({ state: 'UPDATED', fromVersion: '2.0.0' });
      await transition(admin, 'Cancel', id);
    });

    it('stops new hand-outs while paused and resumes them', async () => {
      const id = await releasedPlan(ours.slice(0, 2));
      const handed = await pending(ours[0]!);
      expect((await transition(admin, 'Pause', id)).statusCode).toBe(200);
      expect(await pending(ours[1]!)).toBeUndefined();
      // A device mid-upgrade still gets its package again.
      expect((await pending(ours[0]!))?.targetId).toBe(handed!.targetId);
      expect((await transition(admin, 'Resume', id)).statusCode).toBe(200);
      expect(await pending(ours[1]!)).toBeDefined();
      await transition(admin, 'Cancel', id);
    });
  });

  describe('progress reports', () => {
    it('follows DOWNLOADING → DOWNLOADED → VERIFIED → UPDATING → UPDATED and refuses a skipped or backward step', async () => {
      const id = await releasedPlan(ours.slice(0, 2));
      const { targetId } = (await pending(ours[0]!))!;
      expect(await statusOf(report(ours[0]!, targetId, 'DOWNLOADED'))).toBe(409);
      expect(await statusOf(report(ours[0]!, targetId, 'DOWNLOADING'))).toBe(200);
      // The same step again is a device's retry.
      expect(await statusOf(report(ours[0]!, targetId, 'DOWNLOADING'))).toBe(200);
      expect(await statusOf(report(ours[0]!, targetId, 'UPDATING'))).toBe(409);
      for (const state of ['DOWNLOADED', 'VERIFIED', 'UPDATING']) expect(await statusOf(report(ours[0]!, targetId, state))).toBe(200);
      expect(await statusOf(report(ours[0]!, targetId, 'DOWNLOADED'))).toBe(409);
      expect(await statusOf(report(ours[0]!, targetId, 'UPDATED', 'ok'))).toBe(200);
      expect(await statusOf(report(ours[0]!, targetId, 'FAILED'))).toBe(409);
      const [stored] = await t.db.select().from(terminalUpgradeTargets).where(eq(terminalUpgradeTargets.id, targetId));
      expect(stored).toMatchObject({ state: 'UPDATED', message: 'ok' });
      expect(await getPlan(id)).toMatchObject({ state: 2, updatedCount: 1, waitingCount: 1 });
      await transition(admin, 'Cancel', id);
    });

    it('answers 404 for another device’s target or one never handed out', async () => {
      const id = await releasedPlan(ours.slice(0, 2));
      const { targetId } = (await pending(ours[0]!))!;
      expect(await statusOf(report(ours[1]!, targetId, 'DOWNLOADING'))).toBe(404);
      const other = (await getPlan(id)).targets.find((target) => target.deviceId === ours[1]!.id)!;
      expect(await statusOf(report(ours[1]!, other.id, 'DOWNLOADING'))).toBe(404);
      await transition(admin, 'Cancel', id);
    });

    it('completes the plan once every target is updated or failed', async () => {
      const id = await releasedPlan(ours.slice(0, 2));
      const a = (await pending(ours[0]!))!;
      const b = (await pending(ours[1]!))!;
      for (const state of ['DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'UPDATING', 'UPDATED']) await report(ours[0]!, a.targetId, state);
      await report(ours[1]!, b.targetId, 'DOWNLOADING');
      expect((await getPlan(id)).state).toBe(2);
      await report(ours[1]!, b.targetId, 'FAILED', 'checksum mismatch');
      expect(await getPlan(id)).toMatchObject({ state: 4, updatedCount: 1, failedCount: 1, inProgressCount: 0, completedAt: expect.any(String) });
      const history = (await t.injectAs(admin, { method: 'GET', url: `/api/TerminalAppUpgrade/History?id=${id}&view=upVersion` })).json().data;
      expect(history.map((entry: { verb: string }) => entry.verb)).toEqual(['Release', 'Complete']);
      // The devices completed it: no user, and from the state it was in.
      expect(history[1]).toMatchObject({ userId: null, from: 2, to: 4 });
      expect(await pending(ours[0]!)).toBeUndefined();
    });
  });

  describe('Cancel', () => {
    it('cancels the waiting targets, hands out nothing more, and refuses their reports', async () => {
      const id = await releasedPlan(ours.slice(0, 3));
      const started = (await pending(ours[0]!))!;
      await report(ours[0]!, started.targetId, 'DOWNLOADING');
      const handed = (await pending(ours[1]!))!;
      expect((await transition(admin, 'Cancel', id)).statusCode).toBe(200);
      const plan = await getPlan(id);
      expect(plan.state).toBe(5);
      expect(Object.fromEntries(plan.targets.map((target) => [target.deviceId, target.state]))).toEqual({
        [ours[0]!.id]: 'DOWNLOADING',
        [ours[1]!.id]: 'CANCELLED',
        [ours[2]!.id]: 'CANCELLED',
      });
      expect(await pending(ours[2]!)).toBeUndefined();
      expect(await statusOf(report(ours[1]!, handed.targetId, 'DOWNLOADING'))).toBe(409);
      expect((await transition(admin, 'Resume', id)).statusCode).toBe(409);
    });
  });
});
