/**
 * Gaps in a terminal's event serials. The terminal row keeps the highest serial stored; an event
 * beyond it + 1 opens a gap (a range of serials never received), an event inside a gap shrinks or
 * splits it. The heartbeat hands the open gaps back as `resendEvents`. Runs in the events' transaction
 * under the terminal's row lock (touchTerminal), so two batches of one device cannot interleave.
 */
import type { SerialGap } from '@campus/contract';
import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Transaction } from '../db/client.js';
import { terminalSerialGaps, terminals } from '../db/schema/index.js';
import { columnOf } from '../resources/engine/query.js';

/** Gaps the heartbeat answers at most: the oldest first; the rest follow once these are filled. */
export const MAX_RESEND_GAPS = 50;

/** Ranges of `serials` (sorted, distinct) beyond `highest` that were skipped: (highest, first), and between neighbours. */
export function gapsOpenedBy(highest: number, serials: readonly number[]): SerialGap[] {
  const gaps: SerialGap[] = [];
  let previous = highest;
  for (const serial of serials) {
    if (serial <= previous) continue;
    if (serial > previous + 1) gaps.push({ from: previous + 1, to: serial - 1 });
    previous = serial;
  }
  return gaps;
}

/** What is left of `gaps` once `filled` (sorted) serials arrived: each gap shrunk or split around them. */
export function gapsAfterFilling(gaps: readonly SerialGap[], filled: readonly number[]): SerialGap[] {
  const left: SerialGap[] = [];
  for (const gap of gaps) {
    let from = gap.from;
    for (const serial of filled) {
      if (serial < from || serial > gap.to) continue;
      if (serial > from) left.push({ from, to: serial - 1 });
      from = serial + 1;
    }
    if (from <= gap.to) left.push({ from, to: gap.to });
  }
  return left;
}

/** Records the serials just stored: new gaps beyond the highest, filled gaps below it, the new highest. */
export async function recordSerials(tx: Transaction, terminalId: number, highest: number, stored: readonly number[]): Promise<void> {
  if (stored.length === 0) return;
  const serials = [...new Set(stored)].sort((a, b) => a - b);
  const below = serials.filter((serial) => serial <= highest);
  if (below.length > 0) {
    // Only the gaps these serials can fall into: one read, one delete, one insert.
    const touched = await tx
      .select({ id: terminalSerialGaps.id, from: terminalSerialGaps.fromSerial, to: terminalSerialGaps.toSerial })
      .from(terminalSerialGaps)
      .where(and(eq(terminalSerialGaps.terminalId, terminalId), lte(terminalSerialGaps.fromSerial, below[below.length - 1]!), gte(terminalSerialGaps.toSerial, below[0]!)));
    const hit = touched.filter((gap) => below.some((serial) => serial >= gap.from && serial <= gap.to));
    if (hit.length > 0) {
      await tx.delete(terminalSerialGaps).where(inArray(terminalSerialGaps.id, hit.map((gap) => gap.id)));
      const left = gapsAfterFilling(hit, below);
      if (left.length > 0) await tx.insert(terminalSerialGaps).values(left.map((gap) => ({ terminalId, fromSerial: gap.from, toSerial: gap.to })));
    }
  }
  const top = serials[serials.length - 1]!;
  if (top > highest) {
    const opened = gapsOpenedBy(highest, serials);
    if (opened.length > 0) await tx.insert(terminalSerialGaps).values(opened.map((gap) => ({ terminalId, fromSerial: gap.from, toSerial: gap.to })));
    await tx.update(terminals).set({ lastEventSerial: top }).where(eq(columnOf(terminals, 'id'), terminalId));
  }
}

/** The open gaps of a terminal, oldest first, at most MAX_RESEND_GAPS. */
export async function openGaps(tx: Transaction, terminalId: number): Promise<SerialGap[]> {
  return tx
    .select({ from: terminalSerialGaps.fromSerial, to: terminalSerialGaps.toSerial })
    .from(terminalSerialGaps)
    .where(eq(terminalSerialGaps.terminalId, terminalId))
    .orderBy(asc(terminalSerialGaps.fromSerial))
    .limit(MAX_RESEND_GAPS);
}
