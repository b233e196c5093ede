/**
 * Recognition events of a batch, stored in the call's transaction: the persons' names looked up in
 * one query within the device's school, the rows inserted in one statement that skips events stored
 * before (a retry), and the serials recorded for gap detection.
 */
import type { IntakeEvent, OpenRecognitionEvent } from '@campus/contract';
import { openEventOf, type openEventColumns } from '../developers/open-events.js';
import { eq, sql } from 'drizzle-orm';
import { intArray } from '../platform/sql-terms.js';
import type { Transaction } from '../db/client.js';
import { parents, pickUpPersons, recognitionRecords, schools, students, teachers } from '../db/schema/index.js';
import { columnOf } from '../resources/engine/query.js';
import type { ResourceTable } from '../db/schema/table.js';
import type { StoredSnapshot } from './snapshots.js';

/** The unknown face: also what an event naming a person of another school (or none) is stored as. */
const UNKNOWN_KIND = 5;

/** The family table of each person kind of RECOGNITION_PERSON_KIND_OPTIONS. */
const PERSON_TABLES: Readonly<Record<number, ResourceTable>> = { 1: students, 2: teachers, 3: parents, 4: pickUpPersons };

/**
 * Names of the persons the events name, by `${kind}:${id}`, read in one query and only within the
 * school: an id of another school's person is not found, so a device can never learn a name beyond
 * its own school nor attach a record to another school's person.
 */
export async function personNames(tx: Transaction, schoolId: number, events: readonly IntakeEvent[]): Promise<Map<string, string>> {
  const idsByKind = new Map<number, Set<number>>();
  for (const event of events) {
    if (event.personKind === UNKNOWN_KIND || event.personId === undefined) continue;
    const ids = idsByKind.get(event.personKind) ?? new Set<number>();
    ids.add(event.personId);
    idsByKind.set(event.personKind, ids);
  }
  if (idsByKind.size === 0) return new Map();
  const selects = [...idsByKind].map(([kind, ids]) => {
    const table = PERSON_TABLES[kind]!;
    // ids are validated integers; the array parameter keeps the statement's text the same for any batch.
    return sql`select ${kind}::int as kind, ${columnOf(table, 'id')} as id, ${columnOf(table, 'name')} as name from ${table}
      where ${columnOf(table, 'schoolId')} = ${schoolId} and ${columnOf(table, 'id')} = any(${intArray(ids)})`;
  });
  const result = (await tx.execute(sql.join(selects, sql` union all `))) as unknown as { rows: { kind: number; id: number; name: string }[] };
  return new Map(result.rows.map((row) => [`${row.kind}:${row.id}`, row.name]));
}

/** The scope key uploads of a school are recorded under: its agent's, or the company's (uploads.ts scopeOwnerKey). */
export async function schoolUploadScope(tx: Transaction, schoolId: number): Promise<string> {
  const [school] = await tx.select({ agentId: columnOf(schools, 'agentId') }).from(schools).where(eq(columnOf(schools, 'id'), schoolId));
  return school?.agentId ? `agent:${school.agentId}` : 'company';
}

/** An event this call stored: its serial, and the record in the Open API's form (the snapshot still unsigned). */
export interface StoredEvent {
  serial: number;
  record: OpenRecognitionEvent;
}

/** The columns of a stored record read back for the callbacks and the notices (openEventColumns), plus the serial. */
const RETURNED = sql.raw(
  'id, recognized_at as "recognizedAt", school_id as "schoolId", device_id as "deviceId", person_kind as "personKind", person_id as "personId", ' +
    'person_name as "personName", direction, similarity, temperature, success, snapshot, event_serial as serial',
);

/**
 * Inserts the events not stored before; answers those newly stored, in the batch's order.
 * The rows travel as one JSON parameter expanded by json_to_recordset: a batch of 100 events is one
 * short statement of one parameter, instead of a VALUES list of 1,400 parameters that drizzle built
 * and PostgreSQL parsed again for every batch (docs/performance.md, "A morning at the gates").
 */
export async function insertEvents(
  tx: Transaction,
  device: { deviceId: number; schoolId: number; successSimilarity: number },
  events: readonly IntakeEvent[],
  names: ReadonlyMap<string, string>,
  snapshots: ReadonlyMap<number, StoredSnapshot>,
): Promise<StoredEvent[]> {
  const rows = events.map((event, index) => {
    const name = event.personId === undefined ? undefined : names.get(`${event.personKind}:${event.personId}`);
    // A person the school does not have is an unknown face: stored, never refused, so one bad id cannot
    // block the batch (the device would retry it for ever) — and never attached to another school's person.
    const isKnown = name !== undefined;
    return {
      at: event.recognizedAt,
      kind: isKnown ? event.personKind : UNKNOWN_KIND,
      pid: isKnown ? event.personId : null,
      name: isKnown ? name : null,
      dir: event.direction,
      sim: event.similarity,
      temp: event.temperature ?? null,
      serial: event.serial,
      // A known person under the success similarity is a failed recognition of that person (a weak
      // match the device let through or not): kept with the person, so misIdentifyPerson counts it.
      ok: isKnown && event.similarity >= device.successSimilarity,
      snap: snapshots.get(index)?.url ?? null,
    };
  });
  // No conflict target: whatever unique index the table has on the event's identity decides
  // (it is partitioned by month, and its key may change with it); a retried event is skipped.
  const result = (await tx.execute(sql`
    insert into ${recognitionRecords} (recognized_at, school_id, device_id, person_kind, person_id, person_name, direction, similarity, temperature, event_serial, success, hidden, snapshot)
    select e.at, ${device.schoolId}::int, ${device.deviceId}::int, e.kind, e.pid, e.name, e.dir, e.sim, e.temp, e.serial, e.ok, false, e.snap
    from json_to_recordset(${JSON.stringify(rows)}::json) as e(at timestamptz, kind smallint, pid int, name text, dir smallint, sim float8, temp float8, serial int, ok boolean, snap text)
    on conflict do nothing
    returning ${RETURNED}`)) as unknown as { rows: (Record<keyof typeof openEventColumns, unknown> & { serial: unknown })[] };
  // The record as inserted, with its new id: developer callbacks carry it (developers/callback-queue.ts).
  const order = new Map(events.map((event, index) => [event.serial, index]));
  return result.rows
    .map(({ serial, ...record }) => ({ serial: Number(serial), record: openEventOf({ ...record, recognizedAt: toDate(record.recognizedAt) }) }))
    .sort((a, b) => order.get(a.serial)! - order.get(b.serial)!);
}

/** A timestamp as a driver answers it from a raw statement (node-postgres and PGlite give a Date; a string otherwise). */
const toDate = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
