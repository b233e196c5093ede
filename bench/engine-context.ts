/** What the benchmarks add to an EngineContext they build without an app. */
import { loadEnv } from '@campus/server/src/env.js';
import { systemClock } from '@campus/server/src/platform/clock.js';
// Importing the family modules registers their hooks (computed filters such as a device's pending licence).
import '@campus/server/src/resources/index.js';
import type { FastifyInstance } from 'fastify';

/**
 * The context's services: the system clock, the settings the server would read from the same
 * environment (a Search's count-cost limit), and no app beyond them — the queries measured (Search,
 * log pages, a workflow step) never reach the app's services, so reaching one fails loudly rather
 * than quietly.
 */
export const BENCH_SERVICES = {
  clock: systemClock,
  server: new Proxy({ env: loadEnv(process.env) } as FastifyInstance, {
    get(target, property) {
      if (property === 'env') return target.env;
      throw new Error(`the benchmark's engine context has no app (asked for ${String(property)})`);
    },
  }),
};
