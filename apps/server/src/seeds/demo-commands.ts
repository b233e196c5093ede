/** Demo remote commands on a school's first device: a reboot that ran an hour ago and a face sync still queued. */
import { COMMAND_EXPIRES_AFTER_MS, TERMINAL_COMMAND_STATES as S, type TerminalCommand } from '@campus/contract';

type CommandRow = Partial<Record<keyof (typeof TerminalCommand)['fields'], unknown>> & { deviceId: number; schoolId: number; kind: string };

const MINUTE = 60 * 1000;

export function demoCommands(schoolId: number, deviceId: number, now: Date): CommandRow[] {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * MINUTE);
  return [
    {
      deviceId,
      schoolId,
      kind: 'reboot',
      state: S.SUCCEEDED,
      attempts: 1,
      payload: {},
      resultCode: 0,
      resultMessage: 'ok',
      createdAt: at(62),
      sentAt: at(61),
      deliveredAt: at(61),
      finishedAt: at(60),
      expiresAt: new Date(at(62).getTime() + COMMAND_EXPIRES_AFTER_MS),
    },
    { deviceId, schoolId, kind: 'syncFaces', state: S.QUEUED, attempts: 0, payload: {}, createdAt: at(1), expiresAt: new Date(at(1).getTime() + COMMAND_EXPIRES_AFTER_MS) },
  ];
}
