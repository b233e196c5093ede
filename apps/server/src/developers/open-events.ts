/**
 * A recognition record as developers receive it (OpenRecognitionEvent): read by the Open API's event
 * pages and returned by the intake's insert for the callbacks, from one list of columns.
 */
import type { OpenRecognitionEvent } from '@campus/contract';
import { recognitionRecords as r } from '../db/schema/resources.js';

/** The record's columns a developer reads, for a select or an insert's `returning`. */
export const openEventColumns = {
  id: r.id,
  recognizedAt: r.recognizedAt,
  schoolId: r.schoolId,
  deviceId: r.deviceId,
  personKind: r.personKind,
  personId: r.personId,
  personName: r.personName,
  direction: r.direction,
  similarity: r.similarity,
  temperature: r.temperature,
  success: r.success,
  snapshot: r.snapshot,
};

/** A row of `openEventColumns` in the wire form; `snapshot` maps the stored address (signed for the Open API, kept for a callback signed at send). */
export function openEventOf(row: Record<keyof typeof openEventColumns, unknown>, snapshot: (stored: string) => string = (stored) => stored): OpenRecognitionEvent {
  return { ...row, recognizedAt: (row.recognizedAt as Date).toISOString(), snapshot: typeof row.snapshot === 'string' ? snapshot(row.snapshot) : null } as OpenRecognitionEvent;
}
