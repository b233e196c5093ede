/**
 * `npm run simulate:terminals -- --devices 200 --rate 50` plays face terminals against a running
 * console (docs/terminal-intake.md is the protocol they speak). It logs in as an operator to register
 * the terminals and read each school's people, then runs until interrupted (or `--seconds`).
 *
 * Options: --base http://127.0.0.1:8080, --devices 200, --rate 50 (events/s over the fleet),
 * --seconds (default: forever), --user admin, --password Admin@123, --captcha (default
 * CAPTCHA_FIXED_CODE, else 1234: start the console with CAPTCHA_FIXED_CODE), --snapshots 0.2 (share of
 * ordinary events with a snapshot), --offline 0.01 (chance per terminal and minute to drop off), --seed,
 * --callbacks <port> (also play a developer receiving the fleet's events at 127.0.0.1:<port>).
 */
import { parseArgs } from 'node:util';
import { startCallbackReceiver } from './simulator/callback-receiver.js';
import { ConsoleClient } from './simulator/console-client.js';
import { loadFleetState, saveFleetState, stateFileOf } from './simulator/fleet-state.js';
import { runFleet } from './simulator/fleet.js';
import { loadPeople, provisionFleet } from './simulator/provision.js';
import { Random } from './simulator/random.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: process.env.CONSOLE_URL ?? 'http://127.0.0.1:8080' },
    devices: { type: 'string', default: '200' },
    rate: { type: 'string', default: '50' },
    seconds: { type: 'string' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'Admin@123' },
    captcha: { type: 'string', default: process.env.CAPTCHA_FIXED_CODE ?? '1234' },
    snapshots: { type: 'string', default: '0.2' },
    offline: { type: 'string', default: '0.01' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    callbacks: { type: 'string' },
  },
});

const base = values.base.replace(/\/$/, '');
const log = (line: string) => console.log(line);
const client = await ConsoleClient.login(base, values.user, values.password, values.captcha);
const stateFile = stateFileOf(base);
const state = loadFleetState(stateFile);
const devices = await provisionFleet(client, Number(values.devices), state, log);
saveFleetState(stateFile, state);
const people = await loadPeople(client, devices.map((d) => d.schoolId));
log(`${devices.length} terminals at ${people.size} schools; ${values.rate} events/s; state in ${stateFile}`);
const receiver = values.callbacks === undefined ? undefined : await startCallbackReceiver(client, Number(values.callbacks), devices.map((d) => d.schoolId));

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
const stats = await runFleet(
  {
    base,
    client,
    devices,
    people,
    state,
    stateFile,
    random: new Random(Number(values.seed)),
    rate: Number(values.rate),
    snapshotShare: Number(values.snapshots),
    offlineChancePerMinute: Number(values.offline),
    seconds: values.seconds === undefined ? Number.POSITIVE_INFINITY : Number(values.seconds),
    report: log,
  },
  controller.signal,
);
log(`done: ${JSON.stringify(stats)}`);
if (receiver) {
  // The console's worker looks every 5 s: give the last batches time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  log(`callbacks: ${JSON.stringify(receiver.stats)}`);
  await receiver.close();
}
