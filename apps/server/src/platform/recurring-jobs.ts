/**
 * Jobs that run every few seconds or minutes on every instance (refund queries). Each run claims its
 * work in the database (`FOR UPDATE SKIP LOCKED`), so any number of instances share it and each item is
 * worked once at a time; the timer only says how often an instance looks (docs/decisions.md).
 */
import type { FastifyInstance } from 'fastify';
import { didJobWork, jobResultText, platformEvent } from './platform-log-sink.js';

export interface RecurringJob {
  name: string;
  everyMs: number;
  run: (app: FastifyInstance) => Promise<unknown>;
}

/** Runs each job every `everyMs` from the app's start until it closes; a run never overlaps the previous one. */
export function scheduleRecurringJobs(app: FastifyInstance, jobs: readonly RecurringJob[]): void {
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    for (const job of jobs) {
      let isRunning = false;
      const tick = async () => {
        if (isRunning) return;
        isRunning = true;
        try {
          const result = await job.run(app);
          if (didJobWork(result)) app.log.info(platformEvent('job', { job: job.name }), `job ${job.name} ran: ${jobResultText(result)}`);
        } catch (error) {
          app.log.error({ err: error, job: job.name }, 'recurring job failed');
        } finally {
          isRunning = false;
        }
      };
      const timer = setInterval(() => void tick(), job.everyMs);
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
