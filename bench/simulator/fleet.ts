/**
 * The fleet: every terminal ticks each second; recognitions arrive at `rate` per second over the
 * fleet (Poisson), a few terminals drop off the network for minutes and come back with what they saw,
 * and now and then a batch is lost in transit so the console finds the gap and asks for it again.
 */
import type { ConsoleClient } from './console-client.js';
import { saveFleetState, type FleetState } from './fleet-state.js';
import { issueSecret, type SimDevice, type SimPerson } from './provision.js';
import type { Random } from './random.js';
import { SimTerminal, type TerminalStats } from './terminal.js';

export interface FleetOptions {
  base: string;
  client: ConsoleClient;
  devices: SimDevice[];
  people: Map<number, SimPerson[]>;
  state: FleetState;
  stateFile: string;
  random: Random;
  /** Recognition events per second over the whole fleet. */
  rate: number;
  snapshotShare: number;
  /** Per terminal and minute, the chance it goes offline for 3–8 minutes. */
  offlineChancePerMinute: number;
  /** Seconds to run; Infinity runs until interrupted. */
  seconds: number;
  report(line: string): void;
}

export function newStats(): TerminalStats {
  return { heartbeats: 0, accepted: 0, duplicates: 0, resent: 0, logs: 0, commands: 0, upgrades: 0, errors: 0 };
}

/** Runs the fleet; resolves with its figures when `seconds` have passed or `signal` aborts. */
export async function runFleet(options: FleetOptions, signal: AbortSignal): Promise<TerminalStats> {
  const stats = newStats();
  const { random, state } = options;
  const reissued = new Set<string>();
  const terminals = options.devices.map(
    (device) =>
      new SimTerminal(device, state.terminals[device.serialNumber]!, options.people.get(device.schoolId) ?? [], {
        base: options.base,
        random,
        snapshotShare: options.snapshotShare,
        stats,
        // A refused signature means the console forgot the secret (another database): issue a new one, once.
        async onRefused(terminal) {
          if (reissued.has(terminal.device.serialNumber)) return;
          reissued.add(terminal.device.serialNumber);
          await issueSecret(options.client, terminal.device.terminalId, terminal.device.serialNumber, state);
          terminal.memory.secret = state.terminals[terminal.device.serialNumber]!.secret;
        },
      }),
  );
  const perTerminal = options.rate / Math.max(1, terminals.length);
  const started = Date.now();
  let lastReport = started;
  let reportedAccepted = 0;
  while (!signal.aborted && Date.now() - started < options.seconds * 1000) {
    const tickStarted = Date.now();
    for (const terminal of terminals) {
      if (terminal.online && random.chance(options.offlineChancePerMinute / 60)) terminal.goOffline(random.int(180_000, 480_000));
      const seen = random.poisson(perTerminal);
      if (seen > 0) {
        // A lost batch: the serials are used but never arrive, until the console asks for them.
        if (random.chance(0.002)) terminal.memory.nextSerial += seen;
        terminal.recognise(seen);
      }
      void terminal.tick();
    }
    if (Date.now() - lastReport >= 10_000) {
      const offline = terminals.filter((t) => !t.online).length;
      const seconds = (Date.now() - lastReport) / 1000;
      options.report(
        `${new Date().toISOString()}  events/s ${((stats.accepted - reportedAccepted) / seconds).toFixed(1)}  accepted ${stats.accepted}  duplicates ${stats.duplicates}  resent ${stats.resent}  heartbeats ${stats.heartbeats}  commands ${stats.commands}  upgrades ${stats.upgrades}  logs ${stats.logs}  offline ${offline}/${terminals.length}  errors ${stats.errors}${stats.lastError ? `  (last: ${stats.lastError})` : ''}`,
      );
      stats.lastError = undefined;
      reportedAccepted = stats.accepted;
      lastReport = Date.now();
      saveFleetState(options.stateFile, state);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - tickStarted))));
  }
  saveFleetState(options.stateFile, state);
  return stats;
}
