/**
 * bench:intake — sustained recognition events per second through the signed intake, as terminals send
 * them: batches of 100 from 200 devices, on a scratch database with the demo seed, with the answer's
 * p50/p99 and the server's CPU per event; then every acknowledged event is counted in the table
 * (stored exactly once, retried batches included).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:intake   # PostgreSQL (the target)
 *   npm run bench:intake -- --db pglite
 *
 * Options: --devices 200, --batch 100, --seconds 20, --clients 16 (batches in flight), --retry 0.05
 * (share of batches sent again, as after a timeout), --snapshots 0 (share of events with a snapshot).
 *
 * --morning: a morning at the gates. Only the schools' children arrive, each with two parents bound and
 * the child's safe-campus service granted (through the console's calls: Parent/Add and
 * StudentService/Add + Extend), so every stored recognition makes a notice per parent in the intake's
 * transaction; the run then counts the notices expected from the stored events (one per parent, child
 * and minute), the notices written, lost and duplicated ones.
 */
import { INTAKE_PATHS, type BatchAnswer, type IntakeEvent } from '@campus/contract';
import { snapshotPng } from '@campus/contract/sample-snapshot';
import { buildMultipartBody, signIntakeRequest } from '@campus/contract/terminal-signing';
import { createDatabase } from '@campus/server/src/db/client.js';
import { loadEnv } from '@campus/server/src/env.js';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { cpuMsOf } from './proc-cpu.js';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { scratchDatabase, startServer, stop } from './main-server.js';
import { ConsoleClient, requestJson } from './simulator/console-client.js';
import { loadPeople, provisionFleet, type SimDevice, type SimPerson } from './simulator/provision.js';
import { Random } from './simulator/random.js';
import { percentile } from './stats.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
    devices: { type: 'string', default: '200' },
    batch: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    clients: { type: 'string', default: '16' },
    retry: { type: 'string', default: '0.05' },
    snapshots: { type: 'string', default: '0' },
    morning: { type: 'boolean', default: false },
  },
});
const MORNING = args.morning === true;
const BATCH = Number(args.batch);
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const RETRY_SHARE = Number(args.retry);
const SNAPSHOT_SHARE = Number(args.snapshots);
/** Serials of this run start here: above anything the demo seed or an earlier run stored. */
const FIRST_SERIAL = 1_000_000_000;


/**
 * CPU time (ms) of the PostgreSQL backends serving the scratch database, by pid: the database's share of
 * an event, comparable across runs on a busy machine as the server's is. Empty when PostgreSQL is not
 * local (its processes are not in this /proc) or for PGlite.
 */
async function databaseCpuMs(env: Record<string, string>): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  if (!env.DATABASE_URL) return cpu;
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    for (const { pid } of rows) {
      try {
        cpu.set(pid, cpuMsOf(pid));
      } catch {
        // Not a local process, or gone: not counted.
      }
    }
  } finally {
    await client.end();
  }
  return cpu;
}

interface DeviceLoad {
  device: SimDevice;
  secret: string;
  people: SimPerson[];
  nextSerial: number;
}

function batchOf(load: DeviceLoad, random: Random): { events: IntakeEvent[]; snapshots: { name: string; data: Buffer }[] } {
  const events: IntakeEvent[] = [];
  const snapshots: { name: string; data: Buffer }[] = [];
  const now = Date.now();
  for (let i = 0; i < BATCH; i += 1) {
    const serial = load.nextSerial++;
    const person = load.people.length > 0 && (MORNING || !random.chance(0.03)) ? random.pick(load.people) : undefined;
    const snapshot = random.chance(SNAPSHOT_SHARE);
    events.push({
      serial,
      personKind: (person?.kind ?? 5) as IntakeEvent['personKind'],
      ...(person ? { personId: person.id } : {}),
      direction: MORNING || random.chance(0.5) ? 1 : 2,
      recognizedAt: new Date(now - (BATCH - i) * 50).toISOString(),
      similarity: person ? 90 : 40,
      temperature: 36.5,
      ...(snapshot ? { snapshotPart: `s${serial}` } : {}),
    });
    if (snapshot) snapshots.push({ name: `s${serial}`, data: snapshotPng(serial) });
  }
  return { events, snapshots };
}

/**
 * The morning's children: each student of the fleet's schools gets two new parents (Parent/Add binds
 * them) and a year of service (StudentService/Add, then Extend with a reason), as the console gives them.
 */
async function morningChildren(client: ConsoleClient, people: Map<number, SimPerson[]>): Promise<Map<number, SimPerson[]>> {
  const children = new Map<number, SimPerson[]>();
  let phone = 0;
  const setUp = performance.now();
  for (const [schoolId, list] of people) {
    const students = list.filter((person) => person.kind === 1);
    children.set(schoolId, students);
    for (const student of students) {
      for (let parent = 0; parent < 2; parent += 1) {
        phone += 1;
        await client.call('/api/Parent/Add?view=parentUser', { phoneNum: `166${String(phone).padStart(8, '0')}`, name: `晨检家长${phone}`, schoolId, studentIds: [student.id], enabled: true });
      }
      // A demo child may hold a paid service already: that one is extended.
      const [held] = await client.searchAll<{ id: number }>('StudentService', 'safeCampusService', { studentId: student.id }, 1);
      const service = held ?? (await client.call<{ id: number }>('/api/StudentService/Add?view=safeCampusService', { studentId: student.id }));
      await client.call('/api/StudentService/Extend?view=safeCampusService', { id: service.id, days: 365, reason: 'bench:intake morning' });
    }
  }
  const count = [...children.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(`morning: ${count} children with 2 parents each in service, set up in ${((performance.now() - setUp) / 1000).toFixed(0)} s`);
  return children;
}

async function send(base: string, load: DeviceLoad, batch: ReturnType<typeof batchOf>): Promise<BatchAnswer> {
  const { body, contentType } =
    batch.snapshots.length > 0
      ? buildMultipartBody({ events: JSON.stringify({ events: batch.events }) }, batch.snapshots.map((s) => ({ name: s.name, filename: `${s.name}.png`, contentType: 'image/png', data: s.data })))
      : { body: JSON.stringify({ events: batch.events }), contentType: 'application/json' };
  const headers = signIntakeRequest({ serialNumber: load.device.serialNumber, secret: load.secret }, { method: 'POST', path: INTAKE_PATHS.events, body });
  return requestJson<BatchAnswer>(`${base}${INTAKE_PATHS.events}`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
}

const scratch = await scratchDatabase(args.db, 'intake');
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  server = await startServer(scratch.env);
  console.log(`${args.db}: server up in ${(server.startMs / 1000).toFixed(1)} s`);
  const client = await ConsoleClient.login(server.base, 'admin', 'Admin@123', '1234');
  const state = { terminals: {} };
  const devices = await provisionFleet(client, Number(args.devices), state, () => undefined);
  let people = await loadPeople(client, devices.map((d) => d.schoolId));
  if (MORNING) people = await morningChildren(client, people);
  const loads: DeviceLoad[] = devices.map((device) => ({
    device,
    secret: (state.terminals as Record<string, { secret: string }>)[device.serialNumber]!.secret,
    people: people.get(device.schoolId) ?? [],
    nextSerial: FIRST_SERIAL,
  }));
  const random = new Random(7);
  const latencies: number[] = [];
  let accepted = 0;
  let duplicates = 0;
  let retried = 0;
  let failures = 0;
  let next = 0;
  const cpuBefore = cpuMsOf(server.child.pid!);
  const dbCpuBefore = await databaseCpuMs(scratch.env);
  const started = performance.now();
  const stopAt = started + SECONDS * 1000;
  const base = server.base;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < stopAt) {
        const load = loads[next++ % loads.length]!;
        const batch = batchOf(load, random);
        const sent = performance.now();
        try {
          const answer = await send(base, load, batch);
          latencies.push(performance.now() - sent);
          accepted += answer.accepted;
          duplicates += answer.duplicates;
          if (random.chance(RETRY_SHARE)) {
            // The terminal never saw the answer (a timeout) and sends the same events again.
            const again = await send(base, load, batch);
            retried += 1;
            accepted += again.accepted;
            duplicates += again.duplicates;
          }
        } catch (error) {
          failures += 1;
          if (failures <= 3) console.error(String(error));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = cpuMsOf(server.child.pid!) - cpuBefore;
  // A backend the pool opened during the run counts from its start (all of it is the run's).
  const dbCpuMs = [...(await databaseCpuMs(scratch.env))].reduce((sum, [pid, ms]) => sum + ms - (dbCpuBefore.get(pid) ?? 0), 0);
  latencies.sort((a, b) => a - b);
  await stop(server.child);
  server = undefined;

  const database = await createDatabase(loadEnv({ ...process.env, ...scratch.env, LOG_LEVEL: 'warn' }));
  // Both drivers answer `{ rows }`; drizzle types the result per driver, hence the cast.
  const counted = (await database.db.execute(sql`select count(*)::int as n from recognition_records where event_serial >= ${FIRST_SERIAL}`)) as unknown as { rows: { n: number }[] };
  const row = counted.rows[0];
  if (MORNING) {
    // Expected: one notice per receiving parent, child and minute of the stored events of children in service.
    const notices = (await database.db.execute(sql`
      with stored as (select r.id, r.person_id, date_trunc('minute', r.recognized_at) as minute from recognition_records r
                      where r.event_serial >= ${FIRST_SERIAL} and r.person_kind = 1 and r.success),
      expected as (select distinct sr.parent_id, s.person_id, s.minute from stored s
                   join service_receivers sr on sr.student_id = s.person_id and sr.active and sr.receiving),
      written as (select n.parent_id, n.student_id, n.minute from parent_notices n join stored s on s.id = n.recognition_id)
      select (select count(*)::int from expected) as expected, (select count(*)::int from written) as written,
        (select count(*)::int from expected e where not exists (select 1 from written w where w.parent_id = e.parent_id and w.student_id = e.person_id and w.minute = e.minute)) as lost,
        (select count(*)::int - count(distinct (parent_id, student_id, minute))::int from written) as duplicated`)) as unknown as {
      rows: { expected: number; written: number; lost: number; duplicated: number }[];
    };
    const n = notices.rows[0]!;
    console.log(
      `${args.db} morning: ${(accepted / seconds).toFixed(0)} recognitions/s with their notices; ${n.written} notices written of ${n.expected} expected, ` +
        `${n.lost} lost, ${n.duplicated} duplicated; each notice commits in its batch's transaction, before the acknowledgement (0 ms after it)`,
    );
    if (n.lost > 0 || n.duplicated > 0) process.exitCode = 1;
  }
  await database.close();
  const stored = row!.n;
  console.log(
    `${args.db}: ${devices.length} devices, batches of ${BATCH}, ${CLIENTS} in flight, ${seconds.toFixed(1)} s: ` +
      `${(accepted / seconds).toFixed(0)} events/s accepted; answer p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; ` +
      `server CPU ${((cpuMs / Math.max(1, accepted)) * 1000).toFixed(0)} µs per event` +
      (dbCpuMs > 0 ? `, database CPU ${((dbCpuMs / Math.max(1, accepted)) * 1000).toFixed(0)} µs per event` : '') +
      `; ${retried} batches retried (${duplicates} duplicates answered), ${failures} failed calls`,
  );
  console.log(`${args.db}: ${accepted} acknowledged, ${stored} stored: ${stored === accepted ? 'every acknowledged event stored exactly once' : 'MISMATCH'}`);
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  if (stored !== accepted) process.exitCode = 1;
} finally {
  if (server) await stop(server.child);
  await scratch.cleanUp();
}
