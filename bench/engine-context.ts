/** What the benchmarks add to an EngineContext they build without an app. */
import { systemClock } from '@campus/server/src/platform/clock.js';
import type { FastifyInstance } from 'fastify';

/**
 * The context's services: the system clock, and no app — the queries measured (Search, log pages, a
 * workflow step) never reach the app's services, so reaching one fails loudly rather than quietly.
 */
export const BENCH_SERVICES = {
  clock: systemClock,
  server: new Proxy({} as FastifyInstance, {
    get(_target, property) {
      throw new Error(`the benchmark's engine context has no app (asked for ${String(property)})`);
    },
  }),
};
