/**
 * Daily background jobs, run once per business day across any number of server instances: each
 * instance checks every hour whether today's run is due, and the one whose claim row lands runs it.
 */
import { formatBusinessDate } from '@campus/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { jobRuns } from '../db/schema/index.js';
import type { Clock } from './clock.js';
import { jobResultText, platformEvent } from './platform-log-sink.js';

export interface DailyJob {
  name: string;
  run: (db: Database, now: Date) => Promise<unknown>;
}

const CHECK_EVERY_MS = 60 * 60 * 1000;

/**
 * Runs the job if no instance has claimed today's run yet; answers whether this call ran it.
 * The claim is an insert on the (name, day) primary key, so two concurrent calls cannot both win.
 * A run that fails releases its claim, so the next check (this or another instance) tries again.
 */
export async function runDailyJobOnce(db: Database, clock: Clock, job: DailyJob): Promise<boolean> {
  const now = clock.now();
  const runOn = formatBusinessDate(now);
  const claimed = await db.insert(jobRuns).values({ name: job.name, runOn, startedAt: now }).onConflictDoNothing().returning({ name: jobRuns.name });
  if (claimed.length === 0) return false;
  const thisRun = and(eq(jobRuns.name, job.name), eq(jobRuns.runOn, runOn));
  try {
    await job.run(db, now);
  } catch (error) {
    await db.delete(jobRuns).where(thisRun);
    throw error;
  }
  await db.update(jobRuns).set({ finishedAt: clock.now() }).where(thisRun);
  return true;
}

/** The job, saying what each of its runs did in the platform log (platLog). */
export function withRunLine(log: FastifyBaseLogger, job: DailyJob): DailyJob {
  return {
    name: job.name,
    run: async (db, now) => {
      const result = await job.run(db, now);
      log.info(platformEvent('job', { job: job.name }), `daily job ${job.name} ran: ${jobResultText(result)}`);
      return result;
    },
  };
}

/** Checks the jobs at start and every hour until the app closes; main.ts starts it (tests run jobs by hand). */
export function scheduleDailyJobs(app: FastifyInstance, jobs: readonly DailyJob[]): void {
  const check = async () => {
    for (const job of jobs) {
      try {
        await runDailyJobOnce(app.db, app.clock, withRunLine(app.log, job));
      } catch (error) {
        app.log.error({ err: error, job: job.name }, 'daily job failed');
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void check();
    timer = setInterval(() => void check(), CHECK_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
