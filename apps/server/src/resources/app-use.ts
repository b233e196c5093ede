/**
 * The app-use log (AppUseEvent): read-only like every log, purged past its retention by the
 * log-retention job. Its module runs the rollups the app-use statistics read (parents/app-use.ts).
 */
import { AppUseEvent } from '@campus/contract';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { countAppUsers, purgeAppUseCallCounts, rollUpAppUse } from '../parents/app-use.js';
import { defineFamilyModule } from './engine/modules.js';

/** Every minute: the events past the watermark into the day and period rollups, and old rate-limit counts out. */
export const appUseRollupJob: RecurringJob = {
  name: 'app-use-rollup',
  everyMs: 60_000,
  run: async (app) => {
    const now = app.clock.now();
    await purgeAppUseCallCounts(app.db, now);
    return rollUpAppUse(app.db, now);
  },
};

/** Every five minutes: registered, activated and paying parents per school. */
export const appUserCountsJob: RecurringJob = {
  name: 'app-user-counts',
  everyMs: 5 * 60_000,
  run: async (app) => ({ schools: await countAppUsers(app.db, app.clock.now()) }),
};

export const appUseEventModule = defineFamilyModule(AppUseEvent, {
  recurringJobs: [appUseRollupJob, appUserCountsJob],
});
