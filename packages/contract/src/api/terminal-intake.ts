/**
 * The terminals' side of the platform (issue 9) as plain values: where a gate or attendance machine
 * calls (`/api/Terminal/Intake/*`), how it signs each request, and the limits and states of what it
 * sends (the schemas are in terminal-intake-schemas.ts). Shared by the server, the web,
 * the terminal simulator (`npm run simulate:terminals`) and bench:intake, so they cannot drift.
 *
 * Signing: every request carries the device's serial number, a Unix-millisecond timestamp, a random
 * nonce and an HMAC-SHA256 (hex) keyed by the device's secret over `intakeStringToSign(...)`. The body
 * is signed through its SHA-256, byte for byte as sent (JSON or multipart). The secret never travels
 * after registration, and never in a URL.
 */
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

/** Temperature sensor as the heartbeat reports it. */
export const TEMPERATURE_SENSOR_STATES = ['ok', 'fault', 'absent'] as const;

/**
 * Kinds of remote command a device is asked to run. Upgrades are not commands: an upgrade plan hands
 * its package out through the heartbeat answer's `upgrade`, paced by the plan, and a single device is
 * upgraded by a plan that lists it.
 */
export const TERMINAL_COMMAND_KINDS = ['reboot', 'syncFaces', 'applyTemplate'] as const;
export type TerminalCommandKind = (typeof TERMINAL_COMMAND_KINDS)[number];

export const UPGRADE_ALGORITHMS = ['full', 'differential'] as const;

export const TERMINAL_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const UPGRADE_DEVICE_STATES = ['DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'UPDATING', 'UPDATED', 'FAILED'] as const;
