/**
 * One simulated face terminal: signs every call as a real one would (the contract's signing helper),
 * sends heartbeats at the interval the console answers, batches recognition events (with snapshots)
 * and log lines, runs and acknowledges the commands it is handed, installs upgrades step by step,
 * resends the event serials the console reports missing, and goes dark now and then (store and forward).
 */
import { createHash } from 'node:crypto';
import {
  INTAKE_PATHS,
  type BatchAnswer,
  type CommandAckBody,
  type HeartbeatAnswer,
  type HeartbeatBody,
  type IntakeCommand,
  type IntakeEvent,
  type IntakeLog,
  type IntakeUpgrade,
  type UpgradeProgressBody,
} from '@campus/contract';
import { snapshotPng } from '@campus/contract/sample-snapshot';
import { buildMultipartBody, signIntakeRequest } from '@campus/contract/terminal-signing';
import { ApiError, requestJson } from './console-client.js';
import type { RememberedTerminal } from './fleet-state.js';
import type { SimDevice, SimPerson } from './provision.js';
import type { Random } from './random.js';

/** Figures the fleet prints. */
export interface TerminalStats {
  heartbeats: number;
  accepted: number;
  duplicates: number;
  resent: number;
  logs: number;
  commands: number;
  upgrades: number;
  errors: number;
  lastError?: string;
}

export interface TerminalOptions {
  base: string;
  random: Random;
  /** Share of events that carry a snapshot image (unknown faces and fevers always do). */
  snapshotShare: number;
  stats: TerminalStats;
  /** Called when the console refuses the terminal's signature (a new database, a rotated secret). */
  onRefused(terminal: SimTerminal): Promise<void>;
}

interface PendingEvent {
  event: IntakeEvent;
  snapshot?: Buffer;
}

const FLUSH_EVENTS_AT = 20;
const FLUSH_AFTER_MS = 5_000;
/** Events kept after sending, so a gap the console reports can be filled. */
const KEPT_FOR_RESEND = 2_000;
const SHANGHAI_OFFSET_MS = 8 * 3_600_000;

export class SimTerminal {
  private pending: PendingEvent[] = [];
  private oldestPendingAt = 0;
  private readonly sent = new Map<number, PendingEvent>();
  private logs: IntakeLog[] = [];
  private logSerial = 1;
  private nextHeartbeatAt = 0;
  /** Serials of the NVRs the last heartbeat answer asked this device to check. */
  private nvrsToCheck: string[] = [];
  private intervalMs = 30_000;
  private offlineUntil = 0;
  private busy = false;
  private upgrading = false;
  private faceCount: number;

  constructor(
    readonly device: SimDevice,
    readonly memory: RememberedTerminal,
    private readonly people: readonly SimPerson[],
    private readonly options: TerminalOptions,
  ) {
    this.faceCount = people.length;
    this.nextHeartbeatAt = Date.now() + options.random.int(0, 5_000);
  }

  get online(): boolean {
    return Date.now() >= this.offlineUntil;
  }

  /** Goes dark for a while: no heartbeat, events kept and sent on return. */
  goOffline(ms: number): void {
    this.offlineUntil = Date.now() + ms;
    this.log('warn', 'network', `link down, buffering events for ${Math.round(ms / 1000)} s`);
  }

  /** Sees `count` faces now: people of the school mostly, now and then a stranger or a weak match. */
  recognise(count: number, now = new Date()): void {
    const { random } = this.options;
    for (let i = 0; i < count; i += 1) {
      const serial = this.memory.nextSerial++;
      const hour = new Date(now.getTime() + SHANGHAI_OFFSET_MS).getUTCHours();
      const direction = random.chance(hour < 12 ? 0.9 : 0.1) ? 1 : 2;
      const fever = random.chance(0.01);
      const temperature = fever ? random.float(37.4, 38.6) : random.float(36.0, 36.9);
      const stranger = this.people.length === 0 || random.chance(0.03);
      const person = stranger ? undefined : random.pick(this.people);
      const similarity = stranger ? random.float(25, 60) : random.chance(0.03) ? random.float(50, 70) : random.float(82, 99);
      const withSnapshot = stranger || fever || random.chance(this.options.snapshotShare);
      const event: IntakeEvent = {
        serial,
        personKind: (person?.kind ?? 5) as IntakeEvent['personKind'],
        ...(person ? { personId: person.id } : {}),
        direction: direction as IntakeEvent['direction'],
        recognizedAt: now.toISOString(),
        similarity: round1(similarity),
        temperature: round1(temperature),
        ...(withSnapshot ? { snapshotPart: `s${serial}` } : {}),
      };
      if (this.pending.length === 0) this.oldestPendingAt = Date.now();
      this.pending.push({ event, snapshot: withSnapshot ? snapshotPng(person?.id ?? serial) : undefined });
      if (fever) this.log('warn', 'thermal', `fever ${event.temperature} ℃ at serial ${serial}`);
    }
  }

  /** One step of the terminal's life, called every second by the fleet. */
  async tick(): Promise<void> {
    if (this.busy || !this.online) return;
    this.busy = true;
    try {
      const now = Date.now();
      if (now >= this.nextHeartbeatAt) await this.heartbeat();
      if (this.pending.length >= FLUSH_EVENTS_AT || (this.pending.length > 0 && now - this.oldestPendingAt >= FLUSH_AFTER_MS)) await this.flushEvents();
      if (this.logs.length > 0) await this.flushLogs();
    } catch (error) {
      this.options.stats.errors += 1;
      this.options.stats.lastError = `${this.device.serialNumber}: ${String(error)}`;
      if (error instanceof ApiError && error.status === 401) await this.options.onRefused(this);
    } finally {
      this.busy = false;
    }
  }

  private async heartbeat(): Promise<void> {
    const body: HeartbeatBody = {
      firmwareVersion: this.memory.firmwareVersion,
      ip: `10.${this.device.schoolId % 250}.${Math.floor(this.device.deviceId / 250) % 250}.${this.device.deviceId % 250}`,
      freeStorageMb: 2_048 + (this.device.deviceId % 7) * 512,
      faceCount: this.faceCount,
      temperatureSensor: this.device.deviceId % 37 === 0 ? 'fault' : 'ok',
      // The school's NVRs the last answer listed: one school in 23 has its recorder unplugged.
      ...(this.nvrsToCheck.length > 0 ? { nvrs: this.nvrsToCheck.map((serialNumber) => ({ serialNumber, reachable: this.device.schoolId % 23 !== 0 })) } : {}),
    };
    const answer = await this.post<HeartbeatAnswer>(INTAKE_PATHS.heartbeat, body);
    this.nvrsToCheck = (answer.nvrs ?? []).map((nvr) => nvr.serialNumber);
    this.options.stats.heartbeats += 1;
    this.intervalMs = answer.intervalSeconds * 1000;
    this.nextHeartbeatAt = Date.now() + this.intervalMs;
    for (const gap of answer.resendEvents) this.resend(gap.from, gap.to);
    for (const command of answer.commands) void this.run(command);
    if (answer.upgrade && !this.upgrading) void this.upgrade(answer.upgrade);
  }

  private resend(from: number, to: number): void {
    for (let serial = from; serial <= to; serial += 1) {
      const kept = this.sent.get(serial);
      if (!kept) continue;
      this.pending.push(kept);
      this.options.stats.resent += 1;
    }
  }

  private async flushEvents(): Promise<void> {
    const batch = this.pending.splice(0, 100);
    const events = batch.map((p) => p.event);
    const snapshots = batch.filter((p) => p.snapshot && p.event.snapshotPart);
    const answer =
      snapshots.length > 0
        ? await this.postMultipart<BatchAnswer>(
            INTAKE_PATHS.events,
            { events: JSON.stringify({ events }) },
            snapshots.map((p) => ({ name: p.event.snapshotPart!, filename: `${p.event.snapshotPart}.png`, contentType: 'image/png', data: p.snapshot! })),
          )
        : await this.post<BatchAnswer>(INTAKE_PATHS.events, { events });
    this.options.stats.accepted += answer.accepted;
    this.options.stats.duplicates += answer.duplicates;
    for (const p of batch) this.sent.set(p.event.serial, p);
    while (this.sent.size > KEPT_FOR_RESEND) this.sent.delete(this.sent.keys().next().value!);
    if (this.pending.length > 0) this.oldestPendingAt = Date.now();
  }

  private async flushLogs(): Promise<void> {
    const logs = this.logs.splice(0, 100);
    await this.post(INTAKE_PATHS.logs, { logs });
    this.options.stats.logs += logs.length;
  }

  /** Runs a command: delivered at once, then done a moment later (now and then it fails). */
  private async run(command: IntakeCommand): Promise<void> {
    const { random } = this.options;
    try {
      await this.ack({ commandId: command.id, status: 'delivered', resultCode: 0 });
      await sleep(random.int(500, 3_000));
      const failed = random.chance(0.05);
      if (!failed && command.kind === 'syncFaces') this.faceCount = this.people.length;
      await this.ack(failed ? { commandId: command.id, status: 'failed', resultCode: 17, message: 'storage busy' } : { commandId: command.id, status: 'succeeded', resultCode: 0 });
      this.log(failed ? 'error' : 'info', 'command', `${command.kind} #${command.id} ${failed ? 'failed (17)' : 'done'}`);
      this.options.stats.commands += 1;
      if (!failed && command.kind === 'reboot') this.offlineUntil = Date.now() + 8_000;
    } catch (error) {
      this.options.stats.errors += 1;
      this.options.stats.lastError = `${this.device.serialNumber} command ${command.id}: ${String(error)}`;
    }
  }

  private ack(body: CommandAckBody): Promise<unknown> {
    return this.post(INTAKE_PATHS.commandAck, body);
  }

  /** Downloads the package, checks its SHA-256 and reports each step; the new firmware shows in the next heartbeat. */
  private async upgrade(upgrade: IntakeUpgrade): Promise<void> {
    this.upgrading = true;
    const report = (state: UpgradeProgressBody['state'], message?: string) =>
      this.post(INTAKE_PATHS.upgradeProgress, { targetId: upgrade.targetId, state, ...(message ? { message } : {}) } satisfies UpgradeProgressBody);
    try {
      await report('DOWNLOADING');
      const response = await fetch(new URL(upgrade.url, this.options.base));
      const bytes = Buffer.from(await response.arrayBuffer());
      await report('DOWNLOADED');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (!response.ok || sha256 !== upgrade.sha256) {
        await report('FAILED', response.ok ? 'checksum mismatch' : `download answered ${response.status}`);
        return;
      }
      await report('VERIFIED');
      await report('UPDATING');
      await sleep(this.options.random.int(2_000, 6_000));
      this.memory.firmwareVersion = upgrade.version;
      await report('UPDATED');
      this.log('info', 'upgrade', `now on ${upgrade.version}`);
      this.options.stats.upgrades += 1;
    } catch (error) {
      this.options.stats.errors += 1;
      this.options.stats.lastError = `${this.device.serialNumber} upgrade: ${String(error)}`;
    } finally {
      this.upgrading = false;
    }
  }

  private log(level: IntakeLog['level'], module: string, message: string): void {
    this.logs.push({ serial: this.logSerial++, level, module, message, loggedAt: new Date().toISOString() });
  }

  private post<T>(path: string, body: unknown): Promise<T> {
    const text = JSON.stringify(body);
    return this.send<T>(path, text, 'application/json');
  }

  private postMultipart<T>(path: string, fields: Record<string, string>, files: Parameters<typeof buildMultipartBody>[1]): Promise<T> {
    const { body, contentType } = buildMultipartBody(fields, files);
    return this.send<T>(path, body, contentType);
  }

  private send<T>(path: string, body: string | Buffer, contentType: string): Promise<T> {
    const headers = signIntakeRequest({ serialNumber: this.device.serialNumber, secret: this.memory.secret }, { method: 'POST', path, body });
    return requestJson<T>(`${this.options.base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
