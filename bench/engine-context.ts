/** What the benchmarks add to an EngineContext they build without an app. */
import { loadEnv } from '@campus/server/src/env.js';
import { systemClock } from '@campus/server/src/platform/clock.js';
import { appStandIn } from '@campus/server/src/resources/engine/context.js';
import { installFamilies } from '@campus/server/src/resources/families.js';

// The measured queries and writes run the families' hooks (a device's pending licence, a transition's side effects).
installFamilies();

/**
 * The context's services: the system clock, and the settings the server would read from the same
 * environment (a Search's count-cost limit). The queries measured (Search, log pages, a workflow
 * step) reach no other app service: one that did would fail loudly.
 */
export const BENCH_SERVICES = {
  clock: systemClock,
  server: appStandIn('the benchmark', { env: loadEnv(process.env) }),
};
