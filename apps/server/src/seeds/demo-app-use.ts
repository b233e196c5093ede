/**
 * Demo app use: most demo parents open the app on some of the last weeks' days and use its tiles and
 * pages, each reporting on that day through the channel's own service (recordAppUse, what
 * /api/App/ReportUse calls) under a parent session of its own; then the rollup job runs as it would,
 * so the six app-use statistics read what the flows made.
 */
import type { AppReportUse } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { createParentSession } from '../app-channel/sessions.js';
import type { Database, Transaction } from '../db/client.js';
import { countAppUsers, recordAppUse, rollUpAllAppUse } from '../parents/app-use.js';

/** Days of history the demo plays, up to today. */
const DAYS = 45;
/** Tiles of appFunctionManage (the demo's codes) and pages of the app, the most used first. */
const FUNCTIONS = ['attendance', 'inbox', 'recognitions', 'services', 'album', 'payments', 'mall', 'liveClass', 'help'];
const ANDROID_MODELS = ['HUAWEI Mate 60', 'Xiaomi 14', 'OPPO Reno11', 'vivo X100', 'HONOR 90'];
const IOS_MODELS = ['iPhone 15', 'iPhone 14', 'iPhone 13'];

/** A repeatable pseudo-random number in [0, 1) from two integers: the demo is the same on every start. */
function noise(a: number, b: number): number {
  const x = Math.sin(a * 12.9898 + b * 78.233) * 43758.5453;
  return x - Math.floor(x);
}

export async function seedDemoAppUse(tx: Transaction, now: Date): Promise<void> {
  const db = tx as unknown as Database;
  const found = (await db.execute(sql`select p.id from parents p where exists (select 1 from parent_students ps where ps.parent_id = p.id) order by p.id`)) as unknown as {
    rows: { id: number }[];
  };
  for (const { id } of found.rows) {
    const parentId = Number(id);
    // Three parents in four have the app; each started on its own day and opens it on some days.
    if (noise(parentId, 1) > 0.75) continue;
    const firstDaysAgo = Math.floor(noise(parentId, 2) * DAYS);
    const eagerness = 0.2 + noise(parentId, 3) * 0.5;
    const ios = noise(parentId, 4) < 0.4;
    const models = ios ? IOS_MODELS : ANDROID_MODELS;
    const deviceModel = models[Math.floor(noise(parentId, 5) * models.length)]!;
    const osVersion = ios ? ['16.7', '17.4', '17.5'][parentId % 3]! : ['12', '13', '14'][parentId % 3]!;
    // The parent signs in once (as SignIn does) and reports under that session.
    const { sessionId } = await createParentSession(tx, { parentId, now });
    for (let daysAgo = firstDaysAgo; daysAgo >= 0; daysAgo -= 1) {
      if (daysAgo !== firstDaysAgo && noise(parentId * 97 + daysAgo, 6) > eagerness) continue;
      // The app reports at the end of the parent's use that day, between 07:00 and 21:00 China time.
      const minuteOfDay = 7 * 60 + Math.floor(noise(parentId, daysAgo) * 14 * 60);
      const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysAgo) - 8 * 3_600_000;
      const reportedAt = new Date(Math.min(now.getTime(), dayStart + minuteOfDay * 60_000));
      // Newer versions spread as the weeks go by.
      const appVersion = daysAgo > 30 ? '3.0.0' : daysAgo > 12 || noise(parentId, 7) < 0.3 ? '3.1.0' : '3.2.0';
      const events: AppReportUse['events'] = [
        { kind: 'session', at: new Date(reportedAt.getTime() - 10 * 60_000).toISOString(), os: ios ? 'ios' : 'android', osVersion, appType: 'parent', appVersion, deviceModel },
      ];
      const uses = 1 + Math.floor(noise(parentId + daysAgo, 8) * 4);
      for (let n = 0; n < uses; n += 1) {
        // Skewed towards the first functions: attendance and the inbox are what parents open most.
        const pick = Math.floor(noise(parentId * 31 + daysAgo, n) ** 2 * FUNCTIONS.length);
        events.push({ kind: 'function', at: new Date(reportedAt.getTime() - (9 - n) * 60_000).toISOString(), code: FUNCTIONS[pick]! });
      }
      await recordAppUse(tx, { parentId, sessionId }, { events }, reportedAt);
    }
  }
  // The job's runs, as they would have followed the reports.
  await rollUpAllAppUse(db, new Date(now.getTime() + 60_000));
  await countAppUsers(db, now);
}
