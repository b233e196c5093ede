/**
 * The schemas of the terminals' side of the platform (issue 9): what a gate or attendance machine
 * sends to `/api/Terminal/Intake/*` and what it is answered. The plain values (paths, headers, limits,
 * the text a terminal signs) are in terminal-intake.ts, where the web reads them without zod.
 */
import { z } from 'zod';
import { INT32_MAX } from '../integers.js';
import {
  HEARTBEAT_SECONDS_MAX,
  HEARTBEAT_SECONDS_MIN,
  MAX_INTAKE_BATCH,
  MAX_NVR_REPORTS,
  TEMPERATURE_SENSOR_STATES,
  TERMINAL_LOG_LEVELS,
  UPGRADE_ALGORITHMS,
  UPGRADE_DEVICE_STATES,
  type TerminalCommandKind,
} from './terminal-intake.js';

/** Body of Terminal/SaveSettings and answer of Terminal/GetSettings: the platform-wide terminal settings. */
export const terminalSettingsSchema = z.object({
  heartbeatSeconds: z.number().int().min(HEARTBEAT_SECONDS_MIN).max(HEARTBEAT_SECONDS_MAX),
  successSimilarity: z.number().min(0).max(100),
});
export type TerminalSettings = z.infer<typeof terminalSettingsSchema>;

const serialSchema = z.number().int().positive().max(INT32_MAX);
const isoTime = z.iso.datetime({ offset: true });
const shortText = (max: number) => z.string().min(1).max(max);

export const heartbeatBodySchema = z.strictObject({
  firmwareVersion: shortText(40),
  ip: shortText(45),
  freeStorageMb: z.number().int().min(0).max(INT32_MAX),
  faceCount: z.number().int().min(0).max(INT32_MAX),
  temperatureSensor: z.enum(TEMPERATURE_SENSOR_STATES),
  /**
   * The school's NVRs the device tried to reach since its last heartbeat (those the last answer's
   * `nvrs` listed): an NVR is online while a terminal of its school reached it within 3 intervals.
   */
  nvrs: z.array(z.strictObject({ serialNumber: shortText(64), reachable: z.boolean() })).max(MAX_NVR_REPORTS).optional(),
});
export type HeartbeatBody = z.infer<typeof heartbeatBodySchema>;

export interface IntakeCommand {
  id: number;
  kind: TerminalCommandKind;
  /** applyTemplate: the template's parameters; others: {}. */
  payload: Record<string, unknown>;
  expiresAt: string;
}

/** A range of the device's own event serial numbers the platform never received (inclusive). */
export interface SerialGap {
  from: number;
  to: number;
}

export interface HeartbeatAnswer {
  intervalSeconds: number;
  serverTime: string;
  /** Commands queued for this device; handing them out marks them SENT. */
  commands: IntakeCommand[];
  /** Event serials to send again. */
  resendEvents: SerialGap[];
  /** The package this device should install now, when an upgrade plan has released it to the device. */
  upgrade?: IntakeUpgrade;
  /** The ads this device shows now (terminalAd), in order; absent where none reaches it. */
  ads?: IntakeAd[];
  /** The texts this device's screen shows now (setChatContent), its own first; absent where none. */
  screenTexts?: string[];
  /** The NVRs of the device's school to try to reach (a TCP connection to ip:port) and report at the next heartbeat; absent where none. */
  nvrs?: IntakeNvr[];
}

/** An NVR a device checks from the school's network, the console's server usually cannot reach it. */
export interface IntakeNvr {
  serialNumber: string;
  ip: string;
  port: number;
}

/** A terminal ad as a device plays it: an image, a video or both (the video first), for `displaySeconds`. */
export interface IntakeAd {
  id: number;
  title: string;
  /** Signed upload address (or an outside address), as the device downloads it. */
  imageUrl?: string;
  videoUrl?: string;
  displaySeconds: number;
  /** The ad's window, so a device that goes offline stops showing it on time. */
  endDate: string;
}

export interface IntakeUpgrade {
  /** The device's row in the plan; progress reports name it. */
  targetId: number;
  version: string;
  /** A signed download address of the package. */
  url: string;
  sha256: string;
  algorithm: (typeof UPGRADE_ALGORITHMS)[number];
}

/** Who a terminal recognised: student, teacher, parent, pick-up person, or a face of no one (5). */
export const intakeEventSchema = z.strictObject({
  serial: serialSchema,
  personKind: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
  /** The person's id in its family; absent for an unknown face. */
  personId: z.number().int().positive().max(INT32_MAX).optional(),
  direction: z.union([z.literal(1), z.literal(2)]),
  recognizedAt: isoTime,
  similarity: z.number().min(0).max(100),
  temperature: z.number().min(30).max(45).optional(),
  /** Name of the multipart part that holds this event's snapshot image. */
  snapshotPart: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});
export type IntakeEvent = z.infer<typeof intakeEventSchema>;

export const eventsBodySchema = z.strictObject({ events: z.array(intakeEventSchema).min(1).max(MAX_INTAKE_BATCH) });

export interface BatchAnswer {
  /** Newly stored in this call. */
  accepted: number;
  /** Already stored by an earlier call (a retry): not stored again. */
  duplicates: number;
}

export const intakeLogSchema = z.strictObject({
  serial: serialSchema,
  level: z.enum(TERMINAL_LOG_LEVELS),
  module: shortText(40),
  message: shortText(2000),
  loggedAt: isoTime,
});
export type IntakeLog = z.infer<typeof intakeLogSchema>;

export const logsBodySchema = z.strictObject({ logs: z.array(intakeLogSchema).min(1).max(MAX_INTAKE_BATCH) });

/** What a device says of a command: it arrived, it ran, or it failed (with the device's result code). */
export const commandAckBodySchema = z.strictObject({
  commandId: z.number().int().positive().max(INT32_MAX),
  status: z.enum(['delivered', 'succeeded', 'failed']),
  resultCode: z.number().int().min(INT32_MAX * -1).max(INT32_MAX),
  message: z.string().max(500).optional(),
});
export type CommandAckBody = z.infer<typeof commandAckBodySchema>;

export const upgradeProgressBodySchema = z.strictObject({
  /** `IntakeUpgrade.targetId` of the heartbeat answer that handed the package out. */
  targetId: z.number().int().positive().max(INT32_MAX),
  state: z.enum(UPGRADE_DEVICE_STATES),
  message: z.string().max(500).optional(),
});
export type UpgradeProgressBody = z.infer<typeof upgradeProgressBodySchema>;
