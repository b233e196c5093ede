/**
 * Demo versions and upgrades: the parent and teacher apps' releases (appVersionManage), two or three
 * packages per terminal model (versionManage) and three upgrade plans (upVersion) — one completed a
 * month ago, one rolling out now with devices at different steps, one paused after a failure.
 *
 * Written through the functions the console and the intake run, not by inserting rows: versions and
 * plans are added by the engine (a package's SHA-256 and size come from its upload record), plans
 * move by their workflow's transitions (Release resolves the targets), and each device is handed its
 * package and reports its steps through the intake's upgrade handlers, in the order a terminal
 * (bench/simulator/terminal.ts) reports them. The plans' counts and completion therefore come from
 * the same code as on a live console. What happened in the past is replayed at its own time through
 * the engine's clock; the database stamps timelines and the operation log with the time of the
 * seed, so those stamps are moved to the replayed times at the end.
 */
import { AppVersion, TerminalAppUpgrade, TerminalAppVersion, UPGRADE_DEVICE_STATES, type ResourceDef, type TransitionDef, type UpgradeProgressBody } from '@campus/contract';
import { and, arrayContains, asc, eq, isNotNull } from 'drizzle-orm';
import type { MediaUrlSigner } from '../platform/media-urls.js';
import { columnOf } from '../resources/engine/query.js';
import { tableOf } from '../resources/engine/registry.js';
import { runTransition } from '../resources/engine/workflow.js';
import { addRow } from '../resources/engine/write.js';
import type { IntakeDevice } from '../terminals/intake-handlers.js';
import { pendingUpgradeFor, reportUpgradeProgress } from '../terminals/upgrades.js';
import type { Transaction } from '../db/client.js';
import { devices, operationLog, stateHistory, terminals } from '../db/schema/index.js';
import { operatorContext } from './demo-operator.js';
import type { DemoPackages } from './demo-packages.js';

/** The firmware the demo's face terminals run before the plans below: the gates are updated from it twice. */
export const DEMO_FIRST_FIRMWARE = { 'GATE-G3': '2.4.1', 'ATT-A8': '1.8.2' } as const;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

interface DemoTerminalVersion {
  deviceCode: string;
  terminalType: number;
  versionNumber: string;
  canUpdatedVersions: string;
  upgradeAlgorithm: 'full' | 'differential';
  releaseNotes: string;
  enabled: boolean;
  daysAgo: number;
}

const TERMINAL_VERSIONS: readonly DemoTerminalVersion[] = [
  { deviceCode: 'GATE-G3', terminalType: 1, versionNumber: '2.4.1', canUpdatedVersions: '2.3.0, 2.3.5', upgradeAlgorithm: 'full', releaseNotes: '修复夜间红外补光灯闪烁；闸机开门时间可按模板设置。', enabled: false, daysAgo: 150 },
  { deviceCode: 'GATE-G3', terminalType: 1, versionNumber: '2.5.0', canUpdatedVersions: '2.4.1', upgradeAlgorithm: 'differential', releaseNotes: '新增戴口罩识别；识别速度提升约 20%。', enabled: true, daysAgo: 35 },
  { deviceCode: 'GATE-G3', terminalType: 1, versionNumber: '2.6.0', canUpdatedVersions: '2.4.1, 2.5.0', upgradeAlgorithm: 'full', releaseNotes: '体温异常语音播报；修复断网重连后漏传识别记录。', enabled: true, daysAgo: 2 },
  { deviceCode: 'ATT-A8', terminalType: 2, versionNumber: '1.8.2', canUpdatedVersions: '', upgradeAlgorithm: 'full', releaseNotes: '考勤机基础版本。', enabled: true, daysAgo: 120 },
  { deviceCode: 'ATT-A8', terminalType: 2, versionNumber: '1.9.0', canUpdatedVersions: '1.8.2', upgradeAlgorithm: 'differential', releaseNotes: '支持人脸库增量同步；屏幕可显示通知文字。', enabled: true, daysAgo: 6 },
  { deviceCode: 'CARD-R2', terminalType: 3, versionNumber: '3.0.4', canUpdatedVersions: '', upgradeAlgorithm: 'full', releaseNotes: '读卡器稳定版本。', enabled: true, daysAgo: 90 },
  { deviceCode: 'CARD-R2', terminalType: 3, versionNumber: '3.1.0', canUpdatedVersions: '3.0.4', upgradeAlgorithm: 'full', releaseNotes: '支持 CPU 卡；降低待机功耗。', enabled: true, daysAgo: 20 },
];

interface DemoAppVersion {
  appType: number;
  versionNumber: string;
  versionCode: number;
  isForceUpgrade: boolean;
  updateContent: string;
  daysAgo: number;
  /** iOS releases under review are not offered yet. */
  isEnabledOnIos: boolean;
}

const ANDROID = 1;
const IOS = 2;
const APP_STORE: Record<number, string> = { 1: 'https://apps.apple.com/cn/app/id6400000001', 2: 'https://apps.apple.com/cn/app/id6400000002' };

/** Each release ships on Android (an APK) and iOS (the App Store); the parent app's 3.2.0 fixed a login flaw, so it is forced. */
const APP_VERSIONS: readonly DemoAppVersion[] = [
  { appType: 1, versionNumber: '3.1.0', versionCode: 30100, isForceUpgrade: false, updateContent: '新增宝宝相册按月归档；考勤推送支持体温显示。', daysAgo: 120, isEnabledOnIos: true },
  { appType: 1, versionNumber: '3.2.0', versionCode: 30200, isForceUpgrade: true, updateContent: '修复登录安全问题，旧版本须升级后才能继续使用；支持请假申请。', daysAgo: 60, isEnabledOnIos: true },
  { appType: 1, versionNumber: '3.2.1', versionCode: 30201, isForceUpgrade: false, updateContent: '修复部分机型缴费页白屏。', daysAgo: 12, isEnabledOnIos: true },
  { appType: 2, versionNumber: '2.0.3', versionCode: 20003, isForceUpgrade: false, updateContent: '班级通知支持图片；修复考勤统计偶尔为空。', daysAgo: 100, isEnabledOnIos: true },
  { appType: 2, versionNumber: '2.1.0', versionCode: 20100, isForceUpgrade: false, updateContent: '新增晨检记录；家长留言可一键回复。', daysAgo: 8, isEnabledOnIos: false },
];

/** A device's part in a plan: the steps it reports after it is handed the package, and the message of a failure. */
interface DeviceScript {
  /** Position of the device's school in the demo list. */
  position: number;
  /** After the plan's release: when the device's heartbeat is handed the package. */
  handedAfterMs: number;
  /** The last step it reports; the steps before it are reported in the order a terminal goes. */
  reaches: UpgradeProgressBody['state'];
  /** FAILED: the step it failed after, and what it said. */
  failedAfter?: UpgradeProgressBody['state'];
  message?: string;
}

interface DemoPlan {
  name: string;
  deviceCode: keyof typeof DEMO_FIRST_FIRMWARE;
  versionNumber: string;
  devicesPerMinute: number;
  remark: string;
  /** Before `now`: when the plan was written and released. */
  createdAgoMs: number;
  releasedAgoMs: number;
  devices: readonly DeviceScript[];
  /** Paused by the operator this long after the release, with this remark. */
  pause?: { afterMs: number; remark: string };
}

/**
 * The plans over the demo's eight schools. Gates and attendance machines of even positions are
 * online now (demo-terminals.ts): the gates rolling out now are the online ones; the rest wait.
 */
const PLANS: readonly DemoPlan[] = [
  {
    name: '闸机固件 2.5.0 全量升级',
    deviceCode: 'GATE-G3',
    versionNumber: '2.5.0',
    devicesPerMinute: 5,
    remark: '口罩识别上线',
    createdAgoMs: 31 * DAY,
    releasedAgoMs: 30 * DAY,
    devices: [0, 1, 2, 3, 4, 5, 6, 7].map((position) =>
      position === 5
        ? { position, handedAfterMs: position * 40 * SECOND, reaches: 'FAILED', failedAfter: 'DOWNLOADED', message: 'checksum mismatch' }
        : { position, handedAfterMs: position * 40 * SECOND, reaches: 'UPDATED' },
    ),
  },
  {
    name: '闸机固件 2.6.0 升级',
    deviceCode: 'GATE-G3',
    versionNumber: '2.6.0',
    devicesPerMinute: 1,
    remark: '体温语音播报；先在线设备，离线设备上线后自动升级',
    createdAgoMs: 20 * MINUTE,
    releasedAgoMs: 6 * MINUTE,
    devices: [
      { position: 0, handedAfterMs: 10 * SECOND, reaches: 'UPDATED' },
      { position: 2, handedAfterMs: 80 * SECOND, reaches: 'UPDATING' },
      { position: 4, handedAfterMs: 150 * SECOND, reaches: 'FAILED', failedAfter: 'DOWNLOADING', message: 'download answered 503' },
      { position: 6, handedAfterMs: 220 * SECOND, reaches: 'DOWNLOADING' },
    ],
  },
  {
    name: '考勤机固件 1.9.0 升级',
    deviceCode: 'ATT-A8',
    versionNumber: '1.9.0',
    devicesPerMinute: 2,
    remark: '人脸库增量同步',
    createdAgoMs: 3 * DAY,
    releasedAgoMs: 2 * DAY,
    devices: [
      { position: 0, handedAfterMs: 15 * SECOND, reaches: 'UPDATED' },
      { position: 1, handedAfterMs: 45 * SECOND, reaches: 'FAILED', failedAfter: 'UPDATING', message: 'self-test failed after update, rolled back to 1.8.2' },
      { position: 2, handedAfterMs: 90 * SECOND, reaches: 'UPDATED' },
      { position: 3, handedAfterMs: 120 * SECOND, reaches: 'DOWNLOADED' },
    ],
    pause: { afterMs: 25 * MINUTE, remark: '一台考勤机升级后自检失败，暂停排查' },
  },
];

/** The steps a terminal reports, in order (UPDATED and FAILED end them). */
const STEPS: readonly UpgradeProgressBody['state'][] = UPGRADE_DEVICE_STATES.filter((state) => state !== 'FAILED');
/** Seconds between a device's reports: downloading takes longest, the update itself a while. */
const STEP_SECONDS: Record<string, number> = { DOWNLOADING: 3, DOWNLOADED: 35, VERIFIED: 2, UPDATING: 3, UPDATED: 50, FAILED: 20 };

/** The states a scripted device reports, in order. */
function reportsOf(script: DeviceScript): UpgradeProgressBody['state'][] {
  const last = script.reaches === 'FAILED' ? script.failedAfter! : script.reaches;
  const steps = STEPS.slice(0, STEPS.indexOf(last) + 1);
  return script.reaches === 'FAILED' ? [...steps, 'FAILED'] : steps;
}

/** A time the seed replays, and what the database stamped then: moved to it at the end. */
interface Stamp {
  family: string;
  id: number;
  at: Date;
  /** The operation-log action and the state-history verb written at that time, if any. */
  action?: string;
  verb?: string;
}

/** The installed devices of a model at the demo schools, by school position (schools in id order). */
async function devicesByPosition(tx: Transaction, deviceCode: string): Promise<IntakeDevice[]> {
  const rows = await tx
    .select({ id: devices.id, serialNumber: devices.serialNumber, schoolId: devices.schoolId })
    .from(devices)
    .innerJoin(terminals, eq(terminals.deviceId, devices.id))
    .where(and(eq(devices.deviceClassCode, deviceCode), isNotNull(devices.schoolId)))
    .orderBy(asc(devices.schoolId), asc(devices.id));
  return rows.map((row) => ({ id: Number(row.id), serialNumber: String(row.serialNumber), schoolId: Number(row.schoolId) }));
}

// The seed's devices download nothing: the package address they are handed is not used.
const UNSIGNED: MediaUrlSigner = { sign: (value) => value, secondsLeft: () => null };

/**
 * Seeds the versions and plans (module doc). `packages` are the stored package files, already
 * recorded in uploaded_files; `adminId` is the operator the engine writes as.
 */
export async function seedDemoUpgrades(tx: Transaction, adminId: number, packages: DemoPackages, now: Date): Promise<void> {
  let at = now;
  const contextFor = await operatorContext(tx, adminId, { now: () => at });
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const stamps: Stamp[] = [];

  const appContext = contextFor(AppVersion);
  for (const release of APP_VERSIONS) {
    const apk = packages.apks.find((item) => item.appType === release.appType && item.versionCode === release.versionCode)!;
    for (const osType of [ANDROID, IOS]) {
      const { id } = await addRow(appContext, {
        osType,
        appType: release.appType,
        versionNumber: release.versionNumber,
        versionCode: release.versionCode,
        isEnabled: osType === ANDROID || release.isEnabledOnIos,
        isForceUpgrade: release.isForceUpgrade,
        updateContent: release.updateContent,
        downloadUrl: osType === ANDROID ? apk.file.url : APP_STORE[release.appType]!,
      });
      stamps.push({ family: AppVersion.name, id, at: ago(release.daysAgo * DAY), action: 'add' });
    }
  }

  const versionContext = contextFor(TerminalAppVersion);
  const versionIds = new Map<string, number>();
  for (const version of TERMINAL_VERSIONS) {
    const file = packages.firmware.find((item) => item.deviceCode === version.deviceCode && item.versionNumber === version.versionNumber)!.file;
    const { daysAgo, ...values } = version;
    const { id } = await addRow(versionContext, { ...values, packageUrl: file.url });
    versionIds.set(`${version.deviceCode} ${version.versionNumber}`, id);
    stamps.push({ family: TerminalAppVersion.name, id, at: ago(daysAgo * DAY), action: 'add' });
  }

  const planContext = contextFor(TerminalAppUpgrade);
  const transition = (verb: string) => TerminalAppUpgrade.workflow.transitions.find((candidate) => candidate.verb === verb) as TransitionDef;
  const firmware = new Map<number, string>();
  for (const plan of PLANS) {
    const fleet = await devicesByPosition(tx, plan.deviceCode);
    for (const device of fleet) if (!firmware.has(device.id)) firmware.set(device.id, DEMO_FIRST_FIRMWARE[plan.deviceCode]);
    const released = ago(plan.releasedAgoMs);
    at = ago(plan.createdAgoMs);
    const { id } = await addRow(planContext, {
      name: plan.name,
      versionId: versionIds.get(`${plan.deviceCode} ${plan.versionNumber}`),
      targetMode: 3,
      serialNumbers: fleet.map((device) => device.serialNumber).join('\n'),
      devicesPerMinute: plan.devicesPerMinute,
      remark: plan.remark,
    });
    stamps.push({ family: TerminalAppUpgrade.name, id, at, action: 'add' });
    at = released;
    await runTransition(planContext, transition('Release'), { id });
    stamps.push({ family: TerminalAppUpgrade.name, id, at, action: 'release', verb: 'Release' });

    // Each device's heartbeat is handed the package, then the device reports its steps.
    let lastReport = released;
    for (const script of plan.devices) {
      const device = fleet[script.position]!;
      let when = new Date(released.getTime() + script.handedAfterMs);
      const upgrade = await pendingUpgradeFor(tx, device, firmware.get(device.id)!, when, UNSIGNED);
      if (!upgrade) throw new Error(`demo plan ${plan.name}: ${device.serialNumber} was handed nothing`);
      for (const state of reportsOf(script)) {
        when = new Date(when.getTime() + STEP_SECONDS[state]! * SECOND);
        await reportUpgradeProgress(tx, device, { targetId: upgrade.targetId, state, ...(state === 'FAILED' ? { message: script.message } : {}) }, when);
      }
      if (script.reaches === 'UPDATED') firmware.set(device.id, upgrade.version);
      if (when > lastReport) lastReport = when;
    }
    // The last report completed a plan whose every device finished (refreshPlan).
    stamps.push({ family: TerminalAppUpgrade.name, id, at: lastReport, verb: 'Complete' });
    if (plan.pause) {
      at = new Date(released.getTime() + plan.pause.afterMs);
      await runTransition(planContext, transition('Pause'), { id, remark: plan.pause.remark });
      stamps.push({ family: TerminalAppUpgrade.name, id, at, action: 'pause', verb: 'Pause' });
    }
  }

  // What the devices' next heartbeats report: the firmware they updated to.
  for (const [deviceId, version] of firmware) await tx.update(terminals).set({ firmwareVersion: version }).where(eq(terminals.deviceId, deviceId));
  await restamp(tx, stamps);
}

/** Moves what the database stamped at the seed's time (rows, timelines, operation log) to the replayed times. */
async function restamp(tx: Transaction, stamps: readonly Stamp[]): Promise<void> {
  const defs: Record<string, ResourceDef> = { [AppVersion.name]: AppVersion, [TerminalAppVersion.name]: TerminalAppVersion, [TerminalAppUpgrade.name]: TerminalAppUpgrade };
  for (const stamp of stamps) {
    if (stamp.action === 'add') {
      const table = tableOf(defs[stamp.family]!);
      await tx.update(table).set({ createdAt: stamp.at }).where(eq(columnOf(table, 'id'), stamp.id));
    }
    if (stamp.action) {
      await tx
        .update(operationLog)
        .set({ createdAt: stamp.at })
        .where(and(eq(operationLog.family, stamp.family), eq(operationLog.action, stamp.action), arrayContains(operationLog.ids, [stamp.id])));
    }
    if (stamp.verb) {
      await tx
        .update(stateHistory)
        .set({ createdAt: stamp.at })
        .where(and(eq(stateHistory.family, stamp.family), eq(stateHistory.rowId, stamp.id), eq(stateHistory.verb, stamp.verb)));
    }
  }
}
