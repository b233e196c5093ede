/**
 * Demo parents' side: the seeded parents are bound to their children as a console write binds them
 * (receiving places, trials); once the app's players have registered their devices, the last two days'
 * gate recognitions make their notices (and those devices' pushes) through the same function the intake
 * calls, so the parentUser page's bindings and receipts and the push outbox are the product's.
 */
import { and, desc, eq, gte } from 'drizzle-orm';
import type { Transaction } from '../db/client.js';
import { parents, recognitionRecords } from '../db/schema/index.js';
import { openEventColumns, openEventOf } from '../developers/open-events.js';
import { enqueueParentNotices } from '../parents/notices.js';
import { bindChildrenOfParents } from '../parents/service.js';

/** Recognitions whose notices the demo makes: the newest, enough to fill a page per school. */
const DEMO_NOTICE_EVENTS = 3_000;

/** Binds every seeded parent to its children. */
export async function bindDemoParents(tx: Transaction, now: Date): Promise<void> {
  const all = await tx.select({ id: parents.id }).from(parents).orderBy(parents.id);
  await bindChildrenOfParents(tx, all.map((row) => Number(row.id)), { now });
}

/** Makes the notices of the newest gate recognitions, as the intake would have when they arrived. */
export async function seedDemoNotices(tx: Transaction, now: Date): Promise<void> {
  const recent = await tx
    .select(openEventColumns)
    .from(recognitionRecords)
    .where(and(eq(recognitionRecords.personKind, 1), eq(recognitionRecords.success, true), gte(recognitionRecords.recognizedAt, new Date(now.getTime() - 2 * 86_400_000))))
    .orderBy(desc(recognitionRecords.recognizedAt))
    .limit(DEMO_NOTICE_EVENTS);
  // Oldest first, in batches of one intake call's size.
  const events = recent.reverse().map((row) => openEventOf(row));
  for (let start = 0; start < events.length; start += 200) await enqueueParentNotices(tx, events.slice(start, start + 200), now);
}
