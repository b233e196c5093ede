/**
 * Demo terminals: the gate and the attendance machine of each demo school are registered as
 * terminals, those of every other school seen a moment ago (online) and the rest silent for a day
 * (offline), with a few lines of their logs, so equipmentManage and terminalLog show rows before a
 * simulated terminal reports. No secret is issued: the console issues one when a real or simulated
 * device is set up. They start on the firmware before the demo's upgrade plans (demo-upgrades.ts),
 * which move the devices they updated on.
 */
import { DEFAULT_HEARTBEAT_SECONDS, OFFLINE_AFTER_MISSED_HEARTBEATS, type TerminalLog } from '@campus/contract';
import type { Transaction } from '../db/client.js';
import { terminalLogs, terminals } from '../db/schema/index.js';

const MINUTE = 60_000;

type TerminalLogRow = Partial<Record<keyof (typeof TerminalLog)['fields'], unknown>>;

/** A terminal of a school and its recent log, deterministic from the school's position; `host` ends its address on the school's network. */
export async function seedDemoTerminal(
  tx: Transaction,
  position: number,
  schoolId: number,
  device: { id: number; serialNumber: string; firmwareVersion: string; host: number },
  now: Date,
): Promise<void> {
  const deviceId = device.id;
  const isOnline = position % 2 === 0;
  const lastSeenAt = new Date(now.getTime() - (isOnline ? 10_000 : 24 * 60 * MINUTE));
  await tx.insert(terminals).values({
    deviceId,
    serialNumber: device.serialNumber,
    schoolId,
    lastSeenAt,
    offlineAt: new Date(lastSeenAt.getTime() + OFFLINE_AFTER_MISSED_HEARTBEATS * DEFAULT_HEARTBEAT_SECONDS * 1000),
    firmwareVersion: device.firmwareVersion,
    ip: `192.168.${position % 250}.${device.host}`,
    freeStorageMb: 2048 - position * 17,
    faceCount: 40 + position,
    temperatureSensor: position % 5 === 4 ? 'fault' : 'ok',
    enabled: true,
  });
  const lines: TerminalLogRow[] = [
    { level: 'info', module: 'boot', message: '系统启动完成 / boot completed' },
    { level: 'info', module: 'faces', message: `人脸库同步完成，共 ${40 + position} 人 / face library synced` },
    { level: 'warn', module: 'network', message: '网络中断 12 秒后恢复 / network dropped for 12 s' },
    ...(position % 5 === 4 ? [{ level: 'error', module: 'thermal', message: '测温模块无响应 / temperature sensor not responding' }] : []),
  ];
  await tx.insert(terminalLogs).values(
    lines.map((line, index) => ({ ...line, deviceId, schoolId, logSerial: index + 1, loggedAt: new Date(lastSeenAt.getTime() - (lines.length - index) * 7 * MINUTE) })),
  );
}
