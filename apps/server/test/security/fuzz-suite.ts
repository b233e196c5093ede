/**
 * Fuzzing every documented route with inputs built from its own schema and beyond it (see
 * fuzz-inputs.ts), as the company admin or an agent holding every button: no 5xx, every
 * error in the envelope, no stack trace, no polluted prototype. A fixed seed and FUZZ_RUNS runs per
 * route (100 in `npm test`; `npm run fuzz` runs 2,000, FUZZ_SEED picks another seed).
 *
 * The routes are shared among FUZZ_SLICES test files (fuzz-1.test.ts …), each on an app and a
 * database of its own, so that vitest's two workers run them beside the rest of the suite instead of
 * one long file finishing last (docs/decisions.md, "The fuzz suite runs 100 cases per route").
 */
import { REPORTS, RESOURCES, type ResourceDef } from '@campus/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createParentSession } from '../../src/app-channel/sessions.js';
import type { SessionLookupFn } from '../../src/platform/auth.js';
import { createSession, touchSession, type SessionLookup } from '../../src/platform/sessions.js';
import { createTestApp } from '../helpers/test-app.js';
import { grantEverything, userIdOf } from '../resources/fixtures.js';
import { injectOptionsOf, requestsOf } from './fuzz-inputs.js';
import { PUBLIC_ROUTES, answerProblem, routeTable, type RouteEntry } from './support.js';

/**
 * 100 runs per route, as issue 8 asks: some 52,000 calls over the ~520 routes. They fit `npm test`
 * because the harness no longer signs in through scrypt after a fuzzed log-out, sends no identical
 * GET twice, and runs in four files beside the others (figures in docs/decisions.md). `npm run fuzz`
 * asks for 2,000.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
/**
 * A route's runs are fuzzed by HALVES tests (each its own seed), so that the slowest, a route
 * answering a workbook built per call (ImportTemplate), stays a third of TIMEOUT on a busy machine.
 */
const HALVES = 2;
const TIMEOUT = 30_000 * Math.max(1, RUNS / 100);

export const FUZZ_SLICES = 4;

/** The callers fuzzing: the company admin reaches the most code, an agent (every button granted) the scoped paths. */
const CALLERS = ['admin', 'agent1'] as const;
type FuzzCaller = (typeof CALLERS)[number];

/**
 * Groups in the order they run: families and reports first, then the platform calls, whose
 * fuzzed grants, passwords and log-outs could take the admin's reach away from the others.
 */
const GROUPS = [...Object.keys(RESOURCES), ...Object.keys(REPORTS), 'Home', 'File', 'uploads', 'health', 'SalesTeam', 'User', 'Permission', 'Account', 'Person', 'Log', 'Pay', 'Open', 'Preference', 'App', 'Live', 'Overview', 'HomeWidget'];
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

/**
 * Declares the tests of one slice of the groups (every FUZZ_SLICES-th, from `slice`), one test per
 * route. The app is built while the file is collected: the tests are the routes its OpenAPI
 * document lists. Everything lives in this call, not in the module: files share modules in a worker
 * (`isolate: false`), and each slice fuzzes an app of its own.
 */
export async function describeFuzzSlice(slice: number): Promise<void> {
  const sessions = memoizedSessions();
  const t = await createTestApp({ lookupSession: sessions.lookup });
  afterAll(() => t.close());
  const allRoutes = routeTable(t).filter((route) => route.method === 'GET' || route.method === 'POST');
  const groups = GROUPS.filter((_group, index) => index % FUZZ_SLICES === slice);
  const routes = groups.flatMap((group) => {
    const selected = allRoutes.filter((route) => groupOf(route) === group).sort((a, b) => a.key.localeCompare(b.key));
    // Log-out last: it ends the session the other calls use.
    return [...selected.filter((route) => route.verb !== 'Logout'), ...selected.filter((route) => route.verb === 'Logout')];
  });

  // Every button: the agent's calls get past the guards and into the scoped queries.
  await grantEverything(t, 'agent1');
  const userIds = new Map<FuzzCaller, number>();
  for (const caller of CALLERS) userIds.set(caller, await userIdOf(t, caller));
  const tokens = new Map<FuzzCaller, string>();
  /**
   * A session started as a login would, without the login: signing in through Login_web costs a
   * scrypt check (some 50 ms), and a fuzzed log-out, session end or password change asks for one
   * after nearly every call of its route.
   */
  const signIn = async (caller: FuzzCaller) => {
    const session = await createSession(t.db, { userId: userIds.get(caller)!, limits: t.env.sessionLimits, now: t.clock.now() });
    tokens.set(caller, session.token);
  };
  sessions.forget();
  for (const caller of CALLERS) await signIn(caller);
  // The parent app's calls take a parent's session: two demo parents stand in for the two callers.
  const parentIds = new Map<FuzzCaller, number>();
  const parentRows = (await t.db.execute(sql`select parent_id as id from parent_students group by parent_id order by parent_id limit 2`)) as unknown as { rows: { id: number }[] };
  CALLERS.forEach((caller, index) => parentIds.set(caller, Number(parentRows.rows[index]!.id)));
  const parentTokens = new Map<FuzzCaller, string>();
  const signInParent = async (caller: FuzzCaller) => {
    parentTokens.set(caller, (await createParentSession(t.db, { parentId: parentIds.get(caller)!, now: t.clock.now() })).token);
  };
  for (const caller of CALLERS) await signInParent(caller);

  async function fuzzRoute(route: RouteEntry, half: number): Promise<void> {
    const anonymous = PUBLIC_ROUTES.has(route.key);
    /**
     * GETs already answered without a problem, by caller and URL: a route's GETs change nothing, so
     * the same one again reads what the first read. Most runs of a route taking only `?view=` are
     * the same call, and an ImportTemplate builds a workbook for each (some 25 ms).
     */
    const answered = new Set<string>();
    await fc.assert(
      fc.asyncProperty(requestsOf(route, viewsOf(route)), fc.constantFrom(...CALLERS), async (request, caller) => {
        const repeat = request.method === 'GET' ? `${anonymous ? '' : caller} ${request.url}` : undefined;
        if (repeat !== undefined && answered.has(repeat)) return;
        const options = injectOptionsOf(request);
        const isParentCall = route.group === 'App';
        const response = anonymous ? await t.app.inject(options) : await t.injectAs((isParentCall ? parentTokens : tokens).get(caller)!, options);
        if (response.statusCode < 400 || response.statusCode >= 500) sessions.forget();
        if (response.statusCode === 401 && !anonymous) await (isParentCall ? signInParent(caller) : signIn(caller));
        const polluted = ({} as Record<string, unknown>).polluted;
        if (polluted !== undefined) throw new Error(`Object.prototype polluted by ${route.key}`);
        const problem = answerProblem(response);
        if (problem) throw new Error(`${route.key}: ${problem}`);
        if (repeat !== undefined && response.statusCode !== 401) answered.add(repeat);
      }),
      { numRuns: Math.ceil(RUNS / HALVES), seed: SEED + half, endOnFailure: false },
    );
  }

  describe(`fuzzing every route (${RUNS} runs each, seed ${SEED}, slice ${slice + 1} of ${FUZZ_SLICES})`, () => {
    if (slice === 0) {
      it('knows the group of every route, and every group has routes', () => {
        expect(allRoutes.filter((route) => groupOf(route) === 'other').map((route) => route.key)).toEqual([]);
        expect(GROUPS.filter((group) => !allRoutes.some((route) => groupOf(route) === group))).toEqual([]);
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
    }

    it.each(routes.flatMap((route) => Array.from({ length: HALVES }, (_none, half) => [route.key, half + 1, route] as const)))(
      'answers fuzzed calls of %s (half %i) without a server error, outside the envelope or with a stack trace',
      (_key, half, route) => fuzzRoute(route, half - 1),
      TIMEOUT,
    );
  });
}
