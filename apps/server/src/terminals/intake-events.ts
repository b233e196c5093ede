/**
 * Recognition events of a batch, stored in the call's transaction: the persons' names looked up in
 * one query within the device's school, the rows inserted in one statement that skips events stored
 * before (a retry), and the serials recorded for gap detection.
 */
import type { IntakeEvent, OpenRecognitionEvent } from '@campus/contract';
import { openEventColumns, openEventOf } from '../developers/open-events.js';
import { eq, sql } from 'drizzle-orm';
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
      where ${columnOf(table, 'schoolId')} = ${schoolId} and ${columnOf(table, 'id')} = any(${`{${[...ids].join(',')}}`}::int[])`;
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

/** Inserts the events not stored before; answers those newly stored, in the batch's order. */
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
      recognizedAt: new Date(event.recognizedAt),
      schoolId: device.schoolId,
      deviceId: device.deviceId,
      personKind: isKnown ? event.personKind : UNKNOWN_KIND,
      personId: isKnown ? event.personId : null,
      personName: isKnown ? name : null,
      direction: event.direction,
      similarity: event.similarity,
      temperature: event.temperature ?? null,
      eventSerial: event.serial,
      // A known person under the success similarity is a failed recognition of that person (a weak
      // match the device let through or not): kept with the person, so misIdentifyPerson counts it.
      success: isKnown && event.similarity >= device.successSimilarity,
      hidden: false,
      snapshot: snapshots.get(index)?.url ?? null,
    };
  });
  // No conflict target: whatever unique index the table has on the event's identity decides
  // (it is partitioned by month, and its key may change with it); a retried event is skipped.
  const stored = await tx
    .insert(recognitionRecords)
    .values(rows)
    .onConflictDoNothing()
    .returning({ ...openEventColumns, serial: columnOf(recognitionRecords, 'eventSerial') });
  // The record as inserted, with its new id: developer callbacks carry it (developers/callback-queue.ts).
  return stored.map(({ serial, ...record }) => ({ serial: Number(serial), record: openEventOf(record) }));
}
