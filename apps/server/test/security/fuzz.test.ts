/**
 * Fuzzing every documented route with inputs built from its own schema and beyond it (see
 * fuzz-inputs.ts), as the company admin or an agent holding every button: no 5xx, every
 * error in the envelope, no stack trace, no polluted prototype. A fixed seed and FUZZ_RUNS runs per
 * route (30 in `npm test`; `npm run fuzz` runs many more, FUZZ_SEED picks another seed).
 */
import { REPORTS, RESOURCES, type ResourceDef } from '@campus/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionLookupFn } from '../../src/platform/auth.js';
import { touchSession, type SessionLookup } from '../../src/platform/sessions.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything } from '../resources/fixtures.js';
import { injectOptionsOf, requestsOf } from './fuzz-inputs.js';
import { PUBLIC_ROUTES, answerProblem, routeTable, type RouteEntry } from './support.js';

/**
 * 30 runs per route keep the suite inside its share of `npm test`: about 15,700 calls over the ~520
 * routes at some 1.5 ms of CPU each (23 s on PGlite, 20 s on PostgreSQL; 10 runs cost 18 s before
 * the sessions were memoized and URLs capped). The issue asks ~100, which would be ~75 s of CPU per
 * database, over twice the budget on a busy 2-core machine: a call refused by its schema still costs
 * ~0.7 ms through Fastify (0.35 ms is the floor of any inject), and the one run in seven that reaches
 * a handler 3-8 ms. `npm run fuzz` asks for 2,000. A family's calls name one of its pages in `?view=`
 * four times in five (fuzz-inputs.ts), so most runs get past the frame check to the schema and the
 * handler: with a fuzzed view seven calls in ten stopped there at 403.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/** Each test fuzzes a handful of routes: its time grows with the runs asked for. */
const TIMEOUT = 30_000 * Math.max(1, RUNS / 100);

let t: TestApp;
let routes: RouteEntry[];
/** The callers fuzzing: the company admin reaches the most code, an agent (every button granted) the scoped paths. */
const CALLERS = ['admin', 'agent1'] as const;
type FuzzCaller = (typeof CALLERS)[number];
const tokens = new Map<FuzzCaller, string>();

/**
 * Groups in the order they run: families and reports first, then the platform calls, whose
 * fuzzed grants, passwords and log-outs could take the admin's reach away from the others.
 */
const GROUPS = [...Object.keys(RESOURCES), ...Object.keys(REPORTS), 'Home', 'File', 'uploads', 'health', 'SalesTeam', 'User', 'Permission', 'Account', 'Person', 'Log', 'Pay', 'Open', 'Preference'];
const groupOf = (route: RouteEntry) => (GROUPS.includes(route.group) ? route.group : 'other');

/** The frames a family's route may name in `?view=` (none for the platform's own routes). */
const viewsOf = (route: RouteEntry): string[] => (RESOURCES as Record<string, ResourceDef | undefined>)[route.group]?.views.map((view) => view.frame) ?? [];

/**
 * The fuzzing callers' sessions, read from the database once and again after any call that may
 * have changed them: the tokens are never fuzzed, and reading the same session on every call was a
 * third of the suite's time. Any answer outside 4xx (a log-out, a password or grant change, a login)
 * forgets them all; a refused call changes nothing. Only valid sessions are kept.
 */
function memoizedSessions(): { lookup: SessionLookupFn; forget(): void } {
  const known = new Map<string, SessionLookup>();
  return {
    async lookup(db, token, limits, now, options) {
      const remembered = known.get(token);
      if (remembered) return remembered;
      const found = await touchSession(db, token, limits, now, options);
      if (found.status === 'valid') known.set(token, found);
      return found;
    },
    forget: () => known.clear(),
  };
}
const sessions = memoizedSessions();

async function fuzzRoute(route: RouteEntry): Promise<void> {
  const anonymous = PUBLIC_ROUTES.has(route.key);
  await fc.assert(
    fc.asyncProperty(requestsOf(route, viewsOf(route)), fc.constantFrom(...CALLERS), async (request, caller) => {
      const options = injectOptionsOf(request);
      const response = anonymous ? await t.app.inject(options) : await t.injectAs(tokens.get(caller)!, options);
      if (response.statusCode < 400 || response.statusCode >= 500) sessions.forget();
      // A fuzzed log-out, session end or password change ends the caller's session: sign in again.
      if (response.statusCode === 401 && !anonymous) tokens.set(caller, await t.loginAs(caller));
      const polluted = ({} as Record<string, unknown>).polluted;
      if (polluted !== undefined) throw new Error(`Object.prototype polluted by ${route.key}`);
      const problem = answerProblem(response);
      if (!problem) return;
      throw new Error(`${route.key}: ${problem}`);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: false },
  );
}

beforeAll(async () => {
  t = await createTestApp({ lookupSession: sessions.lookup });
  routes = routeTable(t).filter((route) => route.method === 'GET' || route.method === 'POST');
  // Every button: the agent's calls get past the guards and into the scoped queries.
  await grantEverything(t, 'agent1');
  sessions.forget();
  for (const caller of CALLERS) tokens.set(caller, await t.loginAs(caller));
});
afterAll(() => t.close());

describe(`fuzzing every route (${RUNS} runs each, seed ${SEED})`, () => {
  it('knows the group of every route, and every group has routes', () => {
    expect(routes.filter((route) => groupOf(route) === 'other').map((route) => route.key)).toEqual([]);
    expect(GROUPS.filter((group) => !routes.some((route) => groupOf(route) === group))).toEqual([]);
  });

  // These run first, before fuzzed grants and passwords could change what the admin reaches.
  it('refuses integers beyond a 32-bit column with a field error', async () => {
    const answers = [
      (await t.injectAs(tokens.get('admin')!, { method: 'GET', url: '/api/School/Get?id=2147483648' })).statusCode,
      (await t.injectAs(tokens.get('admin')!, { method: 'POST', url: '/api/Student/Search', payload: { pageSize: 5, schoolId: 2147483648 } })).statusCode,
      (await t.injectAs(tokens.get('admin')!, { method: 'POST', url: '/api/Student/BatchDelete', payload: [2147483648] })).statusCode,
    ];
    expect(answers).toEqual([400, 400, 400]);
  });

  it('refuses text holding NUL with a field error', async () => {
    const answers = [
      (await t.injectAs(tokens.get('admin')!, { method: 'POST', url: '/api/Student/Search', payload: { pageSize: 5, name: 'a\u0000b' } })).statusCode,
      (await t.injectAs(tokens.get('admin')!, { method: 'POST', url: '/api/User/UpdateLoginUserInfo', payload: { name: 'a\u0000b' } })).statusCode,
    ];
    expect(answers).toEqual([400, 400]);
  });

  // A test fuzzes every third route of a group, so that none runs long (School has a dozen routes).
  it.each(GROUPS.flatMap((group) => [0, 1, 2].map((part) => [group, part] as const)))(
    'answers fuzzed calls of %s (part %i) without a server error, outside the envelope or with a stack trace',
    async (group, part) => {
      const selected = routes.filter((route) => groupOf(route) === group).sort((a, b) => a.key.localeCompare(b.key));
      // Log-out last: it ends the session the other calls use.
      const ordered = [...selected.filter((route) => route.verb !== 'Logout'), ...selected.filter((route) => route.verb === 'Logout')];
      for (const route of ordered.filter((_route, index) => index % 3 === part)) await fuzzRoute(route);
    },
    TIMEOUT,
  );
});
