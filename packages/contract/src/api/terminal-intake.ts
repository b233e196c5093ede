/**
 * The terminals' side of the platform (issue 9): what a gate or attendance machine sends to
 * `/api/Terminal/Intake/*`, how it signs each request, and what it is answered. Shared by the server,
 * the terminal simulator (`npm run simulate:terminals`) and bench:intake, so the three cannot drift.
 *
 * Signing: every request carries the device's serial number, a Unix-millisecond timestamp, a random
 * nonce and an HMAC-SHA256 (hex) keyed by the device's secret over `intakeStringToSign(...)`. The body
 * is signed through its SHA-256, byte for byte as sent (JSON or multipart). The secret never travels
 * after registration, and never in a URL.
 */
import { z } from 'zod';
import { INT32_MAX } from '../integers.js';

export const INTAKE_PATHS = {
  heartbeat: '/api/Terminal/Intake/Heartbeat',
  /** JSON `{ events }`, or multipart with a part `events` (the same JSON) and one image part per snapshot. */
  events: '/api/Terminal/Intake/Events',
  logs: '/api/Terminal/Intake/Logs',
  commandAck: '/api/Terminal/Intake/CommandAck',
  upgradeProgress: '/api/Terminal/Intake/UpgradeProgress',
} as const;

/** Request headers of a signed intake call (lower case, as Node exposes them). */
export const INTAKE_HEADERS = {
  serial: 'x-terminal-serial',
  timestamp: 'x-terminal-timestamp',
  nonce: 'x-terminal-nonce',
  signature: 'x-terminal-signature',
} as const;

/** A request whose timestamp is further than this from the server's clock is refused. */
export const INTAKE_MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** Nonces are 16 to 64 characters of [A-Za-z0-9_-]; each is accepted once per device. */
export const INTAKE_NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** Heartbeat interval told to a device unless a setting says otherwise, and the bounds a company user may set it within. */
export const DEFAULT_HEARTBEAT_SECONDS = 30;
export const HEARTBEAT_SECONDS_MIN = 5;
export const HEARTBEAT_SECONDS_MAX = 3600;
/**
 * Similarity (0–100) a known person's event must reach to be stored as a successful recognition,
 * unless a setting says otherwise: below it the event is a failed recognition of that person
 * (identifyWarn, and misIdentifyPerson's failures). At 70 the band from it up to LOW_SIMILARITY (80)
 * stays successful and is counted as weak matches.
 */
export const DEFAULT_SUCCESS_SIMILARITY = 70;

/** Body of Terminal/SaveSettings and answer of Terminal/GetSettings: the platform-wide terminal settings. */
export const terminalSettingsSchema = z.object({
  heartbeatSeconds: z.number().int().min(HEARTBEAT_SECONDS_MIN).max(HEARTBEAT_SECONDS_MAX),
  successSimilarity: z.number().min(0).max(100),
});
export type TerminalSettings = z.infer<typeof terminalSettingsSchema>;
/** A device is offline once this many heartbeat intervals have passed without any signed call. */
export const OFFLINE_AFTER_MISSED_HEARTBEATS = 3;
/** Most events or log lines in one batch. */
export const MAX_INTAKE_BATCH = 500;
/** Most NVRs one heartbeat reports on (a school has a handful; more is a device's error). */
export const MAX_NVR_REPORTS = 64;

/** The exact text a terminal signs: method, path (no query), timestamp, nonce and the body's SHA-256 (hex). */
export function intakeStringToSign(parts: { method: string; path: string; timestamp: string; nonce: string; bodySha256Hex: string }): string {
  return [parts.method.toUpperCase(), parts.path, parts.timestamp, parts.nonce, parts.bodySha256Hex.toLowerCase()].join('\n');
}

const serialSchema = z.number().int().positive().max(INT32_MAX);
const isoTime = z.iso.datetime({ offset: true });
const shortText = (max: number) => z.string().min(1).max(max);

/** Temperature sensor as the heartbeat reports it. */
export const TEMPERATURE_SENSOR_STATES = ['ok', 'fault', 'absent'] as const;

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

/**
 * Kinds of remote command a device is asked to run. Upgrades are not commands: an upgrade plan hands
 * its package out through the heartbeat answer's `upgrade`, paced by the plan, and a single device is
 * upgraded by a plan that lists it.
 */
export const TERMINAL_COMMAND_KINDS = ['reboot', 'syncFaces', 'applyTemplate'] as const;
export type TerminalCommandKind = (typeof TERMINAL_COMMAND_KINDS)[number];

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

export const UPGRADE_ALGORITHMS = ['full', 'differential'] as const;

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

export const TERMINAL_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

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

export const UPGRADE_DEVICE_STATES = ['DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'UPDATING', 'UPDATED', 'FAILED'] as const;

export const upgradeProgressBodySchema = z.strictObject({
  /** `IntakeUpgrade.targetId` of the heartbeat answer that handed the package out. */
  targetId: z.number().int().positive().max(INT32_MAX),
  state: z.enum(UPGRADE_DEVICE_STATES),
  message: z.string().max(500).optional(),
});
export type UpgradeProgressBody = z.infer<typeof upgradeProgressBodySchema>;
