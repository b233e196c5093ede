import { formatBusinessDate, type ReportDef } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { TestApp } from './test-app.js';

/**
 * A report's period filters reaching every demo row: the demo seed stamps some rows with the test
 * clock (in March) and the database stamps others with its own today, so a report asked over its
 * default month of the test clock can miss the latter. Empty for a report without a period.
 */
export async function demoPeriodRange(t: TestApp, def: Pick<ReportDef, 'period'>): Promise<Record<string, string>> {
  if (!def.period) return {};
  const found = (await t.db.execute(sql`select to_char((now() at time zone 'Asia/Shanghai')::date, 'YYYY-MM-DD') as day`)) as unknown as { rows: { day: string }[] };
  const databaseToday = found.rows[0]!.day;
  const clockDay = formatBusinessDate(new Date(t.clock.now().getTime() - 30 * 86_400_000));
  return { [`${def.period.field}From`]: clockDay < databaseToday ? clockDay : databaseToday, [`${def.period.field}To`]: databaseToday, grain: def.period.grains.at(-1)! };
}
