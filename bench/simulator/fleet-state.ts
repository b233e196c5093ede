/**
 * What the simulator remembers between runs against one console: each simulated terminal's secret
 * (shown once by IssueSecret), its next event serial and its firmware. Kept in the repository root as
 * `.simulator-<host>-<port>.json` (git-ignored), so a restart continues the same devices.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RememberedTerminal {
  secret: string;
  nextSerial: number;
  firmwareVersion: string;
}

export interface FleetState {
  terminals: Record<string, RememberedTerminal>;
}

/** The state file of the console at `base`. */
export function stateFileOf(base: string): string {
  const url = new URL(base);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return `${root}.simulator-${url.hostname}-${url.port || (url.protocol === 'https:' ? '443' : '80')}.json`;
}

export function loadFleetState(file: string): FleetState {
  if (!existsSync(file)) return { terminals: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as FleetState;
}

export function saveFleetState(file: string, state: FleetState): void {
  writeFileSync(file, `${JSON.stringify(state, null, 1)}\n`, { mode: 0o600 });
}
