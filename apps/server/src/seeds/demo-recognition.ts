/**
 * Demo recognition records: the gate of each demo school over the last five days, so identifySuccess
 * and identifyWarn show rows before any terminal reports (issue 9 brings the terminals' intake).
 * Arrivals in the morning and departures in the afternoon of the school's students and teachers; a
 * few faces matched to no one, a few too weak to accept, and one fever a day.
 */
import type { RecognitionRecord } from '@campus/contract';

type RecognitionRow = Partial<Record<keyof (typeof RecognitionRecord)['fields'], unknown>> & {
  recognizedAt: Date;
  schoolId: number;
  deviceId: number;
  personKind: number;
  direction: number;
  similarity: number;
  eventSerial: number;
  success: boolean;
};

export interface DemoPerson {
  id: number;
  name: string;
  /** RECOGNITION_PERSON_KIND_OPTIONS: 1 student, 2 teacher. */
  kind: number;
}

const DAYS = 5;
const HOUR = 3_600_000;

/** Midnight in Asia/Shanghai (UTC+8, no daylight saving) of the business day `daysAgo` before `now`. */
function shanghaiMidnight(now: Date, daysAgo: number): number {
  const local = now.getTime() + 8 * HOUR;
  return local - (local % (24 * HOUR)) - 8 * HOUR - daysAgo * 24 * HOUR;
}

/**
 * The records of one school's gate: per day, up to 8 people in and out (the later of them only on
 * days already past `now`), two failed matches and a fever. Deterministic from `position`. Each
 * record carries a snapshot, as a face terminal sends one with every event, when `snapshots` (the
 * stored tiles' addresses) are given; a person keeps the same tile.
 */
export function demoRecognitions(
  position: number,
  schoolId: number,
  deviceId: number,
  people: readonly DemoPerson[],
  now: Date,
  snapshots: readonly string[] = [],
): RecognitionRow[] {
  const rows: RecognitionRow[] = [];
  const snapshotOf = (visitor: number) => (snapshots.length === 0 ? null : snapshots[(position * 9 + visitor) % snapshots.length]!);
  let eventSerial = 0;
  const at = (day: number, minutes: number) => new Date(shanghaiMidnight(now, day) + minutes * 60_000);
  const push = (row: Omit<RecognitionRow, 'schoolId' | 'deviceId' | 'eventSerial'>) => {
    if (row.recognizedAt.getTime() > now.getTime()) return; // nothing from the future
    eventSerial += 1;
    rows.push({ schoolId, deviceId, eventSerial, hidden: false, ...row });
  };
  const visitors = people.slice(0, 8);
  for (let day = DAYS - 1; day >= 0; day -= 1) {
    for (const [i, person] of visitors.entries()) {
      const similarity = 86 + ((position * 7 + i * 3 + day) % 13);
      const temperature = (362 + ((i + day + position) % 6)) / 10;
      const fever = i === (day + position) % visitors.length;
      const base = { personId: person.id, personName: person.name, personKind: person.kind, success: true, similarity, snapshot: snapshotOf(i) };
      push({ ...base, recognizedAt: at(day, 7 * 60 + 30 + i * 3 + (position % 5)), direction: 1, temperature: fever ? 37.8 : temperature });
      push({ ...base, recognizedAt: at(day, 16 * 60 + 30 + i * 4), direction: 2, temperature });
    }
    // A face the terminal matched to no one, and a known face too weakly matched to open the gate.
    push({ recognizedAt: at(day, 8 * 60 + 5), personKind: 5, direction: 1, similarity: 41 + ((day + position) % 9), temperature: 36.6, success: false, snapshot: snapshotOf(visitors.length + day) });
    const knownIndex = (day + position) % visitors.length;
    const known = visitors[knownIndex]!;
    push({ recognizedAt: at(day, 8 * 60 + 12), personId: known.id, personName: known.name, personKind: known.kind, direction: 1, similarity: 71 + (day % 5), success: false, snapshot: snapshotOf(knownIndex) });
  }
  return rows;
}
