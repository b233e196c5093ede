/**
 * The seam between the signed intake routes (terminals/intake-*.ts) and the parts of the platform a
 * heartbeat or an acknowledgement reaches: remote commands (terminals/commands.ts) and upgrade plans
 * (terminals/upgrades.ts). The family list installs each part's handlers once at start; the intake calls them
 * inside the request's transaction, so what a device is handed and what it reports commit together.
 */
import type { CommandAckBody, IntakeAd, IntakeCommand, IntakeUpgrade, UpgradeProgressBody } from '@campus/contract';
import type { Transaction } from '../db/client.js';
import { notFound } from '../platform/errors.js';
import type { MediaUrlSigner } from '../platform/media-urls.js';

/** The device behind a verified intake request. */
export interface IntakeDevice {
  id: number;
  serialNumber: string;
  schoolId: number | null;
}

export interface CommandHandlers {
  /** Commands due for the device (queued, or sent long enough ago to resend), marked SENT. */
  commandsFor(tx: Transaction, device: IntakeDevice, now: Date): Promise<IntakeCommand[]>;
  /** Records the device's acknowledgement; throws a 404/409 AppError for an unknown command or a wrong state. */
  acknowledge(tx: Transaction, device: IntakeDevice, body: CommandAckBody, now: Date): Promise<void>;
}

export interface UpgradeHandlers {
  /** The package a released plan hands this device now (its firmware being one the package updates from). */
  pendingUpgradeFor(tx: Transaction, device: IntakeDevice, firmwareVersion: string, now: Date, signer: MediaUrlSigner): Promise<IntakeUpgrade | undefined>;
  /** Records a device's progress on its plan target; throws a 404/409 AppError for an unknown target or a wrong step. */
  reportUpgradeProgress(tx: Transaction, device: IntakeDevice, body: UpgradeProgressBody, now: Date): Promise<void>;
}

export interface ScreenHandlers {
  /** What the device's screen shows now: its ads (terminalAd) and its texts (setChatContent). */
  screenFor(tx: Transaction, device: IntakeDevice, now: Date, signer: MediaUrlSigner): Promise<{ ads: IntakeAd[]; screenTexts: string[] }>;
}

export interface IntakeHandlers {
  commands: CommandHandlers;
  upgrades: UpgradeHandlers;
  screen: ScreenHandlers;
}

declare module '../resources/engine/modules.js' {
  interface FamilySeams {
    /** The family modules' parts of the terminal intake (a heartbeat's commands, upgrades and screen; the acknowledgements). */
    intake: IntakeHandlers;
  }
}

// What the intake calls for a part no module gives: a device is handed nothing, and whatever it reports names nothing known.
const NO_HANDLERS: IntakeHandlers = {
  commands: {
    commandsFor: async () => [],
    acknowledge: async () => {
      throw notFound();
    },
  },
  upgrades: {
    pendingUpgradeFor: async () => undefined,
    reportUpgradeProgress: async () => {
      throw notFound();
    },
  },
  screen: { screenFor: async () => ({ ads: [], screenTexts: [] }) },
};

let installed: IntakeHandlers = NO_HANDLERS;

/** Installs the intake parts the family modules give (once, at start: resources/families.ts), replacing any installed before. */
export function installIntakeHandlers(handlers: Partial<IntakeHandlers>): void {
  installed = { ...NO_HANDLERS, ...handlers };
}

/** The screen handlers the intake calls. */
export function screenHandlersOf(): ScreenHandlers {
  return installed.screen;
}

/** The command handlers the intake calls. */
export function commandHandlersOf(): CommandHandlers {
  return installed.commands;
}

/** The upgrade handlers the intake calls. */
export function upgradeHandlersOf(): UpgradeHandlers {
  return installed.upgrades;
}
