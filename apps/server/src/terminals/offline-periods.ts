/**
 * Each terminal's offline periods (terminal_offline_periods), kept by the offline sweep (live-intake.ts)
 * from what the intake already writes: nothing is added to the intake's path but two columns of the
 * row it updates anyway (first_seen_at, online_since: intake-auth.ts touchTerminal). A run, holding the
 * `terminal-offline-periods` watermark row (instances take turns):
 * - closes the open periods of terminals that called again (ended = their online_since);
 * - opens one for each terminal whose offline time passed since the last run (started = offline_at).
 * The first run opens one for every terminal offline at that moment, from its own offline time.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { jobWatermarks } from '../db/schema/index.js';

export const OFFLINE_PERIODS_WATERMARK = 'terminal-offline-periods';

type Rows<T> = { rows: T[] };

/** Brings the offline periods up to `now`; answers how many it opened and closed. */
export async function recordOfflinePeriods(db: Database, now: Date): Promise<{ opened: number; closed: number }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.insert(jobWatermarks).values({ name: OFFLINE_PERIODS_WATERMARK }).onConflictDoNothing();
  return db.transaction(async (tx) => {
    const marks = (await tx.execute(sql`select last_at from job_watermarks where name = ${OFFLINE_PERIODS_WATERMARK} for update`)) as unknown as Rows<{ last_at: string | Date | null }>;
    const lastAt = marks.rows[0]?.last_at ?? null;
    // Another instance's run already swept past this instant: nothing to add.
    if (lastAt !== null && new Date(lastAt).getTime() >= now.getTime()) return { opened: 0, closed: 0 };
    const closed = (await tx.execute(sql`
      update terminal_offline_periods p set ended_at = t.online_since
      from terminals t
      where p.ended_at is null and t.id = p.terminal_id and t.online_since > p.started_at and t.online_since <= ${at}
      returning p.id`)) as unknown as Rows<{ id: number }>;
    const since = lastAt === null ? sql`true` : sql`offline_at > ${new Date(lastAt).toISOString()}::timestamptz`;
    const opened = (await tx.execute(sql`
      insert into terminal_offline_periods (terminal_id, school_id, started_at)
      select id, school_id, offline_at from terminals where offline_at <= ${at} and ${since}
      on conflict (terminal_id, started_at) do nothing
      returning id`)) as unknown as Rows<{ id: number }>;
    await tx.execute(sql`update job_watermarks set last_at = ${at} where name = ${OFFLINE_PERIODS_WATERMARK}`);
    return { opened: opened.rows.length, closed: closed.rows.length };
  });
}
