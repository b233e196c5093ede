/**
 * bench:overview — the Overview's one statement (systemView, the home page's figures, the wall
 * display) on a scaled database (seed:scale: 10M recognitions, 1M students): p50/p95 over 20 reads
 * for the company and for the agent with most schools, with the load average, and how far the
 * Overview's counter has got (seed:scale catches it up; a database seeded before it: run seed:scale
 * again with the same figures). Read-only.
 *
 *   DATABASE_URL=postgres://…/scaled npm run bench:overview [-- --at 23:30]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { formatBusinessDate } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { createDatabase } from '@campus/server/src/db/client.js';
import { IN_MEMORY_DATA_DIR } from '@campus/server/src/env.js';
import { readOverview } from '@campus/server/src/reports/overview.js';
import { overviewCounterMark } from '@campus/server/src/reports/overview-counter.js';
import type { SchoolScope } from '@campus/server/src/platform/scope.js';
import { percentile, sortedOf } from './stats.js';

/** `hhmm` in China on the business day before the one holding `instant`. */
function chinaTimeOfDayBefore(instant: Date, hhmm: string): Date {
  if (!/^\d\d:\d\d$/.test(hhmm)) throw new Error('--at takes HH:MM (China time)');
  const dayBefore = formatBusinessDate(new Date(instant.getTime() - 86_400_000));
  return new Date(Date.parse(`${dayBefore}T${hhmm}:00+08:00`));
}

const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:overview needs DATABASE_URL (a database seed:scale prepared)');
const database = await createDatabase({ DATABASE_URL: url, DATA_DIR: IN_MEMORY_DATA_DIR });
const RUNS = 20;
try {
  const { db } = database;
  const found = (await db.execute(sql`select agent_id, array_agg(id) as ids from schools where agent_id is not null group by agent_id order by count(*) desc limit 1`)) as unknown as {
    rows: { agent_id: number; ids: number[] }[];
  };
  const agent = found.rows[0];
  const last = (await db.execute(sql`select max(recognized_at) as last from recognition_records`)) as unknown as { rows: { last: string | Date }[] };
  // At the data's last recognition: today's, yesterday's and last week's index ranges all hold rows.
  // `--at HH:MM`: that time of day (China) on the day before instead, a whole day of records behind it.
  const { values } = parseArgs({ options: { at: { type: 'string' } } });
  const lastAt = new Date(last.rows[0]!.last);
  const now = values.at ? chinaTimeOfDayBefore(lastAt, values.at) : lastAt;
  console.log(`now: ${now.toISOString()} (${formatBusinessDate(now)} ${new Date(now.getTime() + 8 * 3_600_000).toISOString().slice(11, 16)} in China)`);
  // The counter's state: the records past its mark are counted from the table on every read.
  const mark = await overviewCounterMark(db);
  const lag = (await db.execute(sql`select count(*) as n from recognition_records where id > ${mark}`)) as unknown as { rows: { n: string | number }[] };
  const counterRows = (await db.execute(sql`select count(*) as n from recognition_hour_counts`)) as unknown as { rows: { n: string | number }[] };
  console.log(`counter: ${Number(counterRows.rows[0]!.n).toLocaleString('en')} hour rows, mark at id ${mark}, ${Number(lag.rows[0]!.n).toLocaleString('en')} records past it`);
  const scopes: [string, SchoolScope][] = [['company', { kind: 'all' }]];
  if (agent) scopes.push([`agent ${agent.agent_id} (${agent.ids.length} schools)`, { kind: 'schools', schoolIds: agent.ids.map(Number) }]);
  for (const [name, scope] of scopes) {
    await readOverview(db, scope, now); // warm the plan and the cache
    const times: number[] = [];
    let recognitions = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const overview = await readOverview(db, scope, now);
      times.push(performance.now() - started);
      recognitions = overview.figures.recognitions.today;
    }
    const sorted = sortedOf(times);
    console.log(`${name}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms (recognitions today ${recognitions})`);
  }
  console.log(`load average: ${os.loadavg().map((value) => value.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
} finally {
  await database.close();
}
