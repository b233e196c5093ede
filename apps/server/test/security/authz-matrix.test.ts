/**
 * The authorisation matrix, generated: every route the app documents × every kind of caller, the
 * expected answer derived from the route's declaration (frames, buttons, user types), the caller's
 * effective grant and its data scope. Nothing here names a family: a new one is covered the day
 * it is declared, and a route no rule explains fails by name.
 */
import { REPORTS, RESOURCES, isLogFamily, type ResourceDef } from '@campus/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolOfRow } from '../resources/fixtures.js';
import { SIGNED_ROUTES, accountPassword, answerProblem, matrixCallers, requirementOf, rowInScope, routeTable, grantAllows, type Caller, type Requirement, type Row, type RouteEntry } from './support.js';

/** An answer the matrix expects: a status, or 'passes' = through authentication and authorisation (not 401/403). */
type Expected = number | 'passes';

interface Probe {
  request: InjectOptions;
  /** The answer of a caller allowed to make the call. */
  allowed: Expected;
  /** The family row the call names, when its scope decides the answer: read it, or write it (manage). */
  row?: { def: ResourceDef; value: Row; purpose: 'read' | 'manage' };
  /** The family whose rows the answer lists: each must lie in the caller's scope. */
  lists?: ResourceDef;
}

interface Outcome {
  route: string;
  role: string;
  expected: Expected;
  actual: number;
  problem?: string;
}

/** An id no row has (below 2^31: out-of-range ids are a defect of their own). */
const MISSING_ID = 2_000_000_000;

let t: TestApp;
let callers: Caller[];
let routes: RouteEntry[];
/** Per family, a row of the first school of agent1 (which sales1's team, agent1, child1 and external1 reach and sales2 does not). */
const samples = new Map<string, Row | undefined>();
const outcomes: Outcome[] = [];

/** A row each family's row-naming calls use: in the matrix school for school families, the demo's own accounts for account families. */
async function sampleOf(def: ResourceDef, admin: string, matrixSchool: number): Promise<Row | undefined> {
  const response = await t.injectAs(admin, { method: 'POST', url: `/api/${def.name}/Search`, payload: { pageSize: 200 } });
  const items = (response.json().data?.items ?? []) as Row[];
  if (def.scope.via === 'self' || def.scope.via === 'school') return items.find((row) => schoolOfRow(def, row) === matrixSchool);
  if (def.scope.via === 'account') {
    // An account each non-company caller might reach: the external user of the matrix school, the child account.
    return items.find((row) => row.loginName === 'external1' || row.loginName === 'child1') ?? items[0];
  }
  return items[0];
}

function probeOf(route: RouteEntry, requirement: Requirement): Probe {
  const url = route.url === '/uploads/*' ? '/uploads/nothing-here' : route.url;
  // Signed, not signed in: the intake refuses an unsigned call from anyone, before reading its body.
  if (SIGNED_ROUTES.has(route.key)) return { request: route.method === 'POST' ? { method: 'POST', url, payload: {} } : { method: 'GET', url }, allowed: 401 };
  const invalidBody: Probe = { request: { method: 'POST', url, payload: JSON.stringify('matrix'), headers: { 'content-type': 'application/json' } }, allowed: 400 };
  if (requirement.kind === 'frames' && requirement.family) {
    const def = requirement.family;
    const sample = samples.get(def.name);
    const id = (sample?.id as number | undefined) ?? MISSING_ID;
    const row = sample ? { def, value: sample, purpose: 'read' as const } : undefined;
    switch (route.verb) {
      case 'Search':
        return { request: { method: 'POST', url, payload: { pageSize: 200 } }, allowed: 200, lists: def };
      case 'Get':
      case 'History':
        return { request: { method: 'GET', url: `${url}?id=${id}` }, allowed: sample ? 200 : 404, row };
      case 'Tree':
        return { request: { method: 'GET', url }, allowed: 200 };
      case 'Options':
        return { request: { method: 'GET', url: `${url}?limit=5` }, allowed: 200 };
      case 'Export':
        return { request: { method: 'GET', url: `${url}?maxCount=5` }, allowed: 200 };
      case 'ImportTemplate':
        return { request: { method: 'GET', url }, allowed: 200 };
      case 'Update':
        // A stale version: an allowed caller in scope is told of the conflict and nothing is written.
        return { request: { method: 'POST', url, payload: { id, version: 999_999 } }, allowed: sample ? 409 : 404, row: row && { ...row, purpose: 'manage' } };
    }
    // A link's values (GetMembers) are read like the row they belong to.
    if (route.method === 'GET') return { request: { method: 'GET', url: `${url}?id=${id}` }, allowed: sample ? 200 : 404, row };
    return invalidBody;
  }
  if (requirement.kind === 'frames' && requirement.report) {
    if (route.verb === 'Search') return { request: { method: 'POST', url, payload: { pageIndex: 1, pageSize: 5 } }, allowed: 200 };
    return { request: { method: 'GET', url }, allowed: 'passes' };
  }
  if (route.method === 'GET') return { request: { method: 'GET', url }, allowed: 'passes' };
  // Every body schema is an object or a list: a JSON string is refused after the guards, before any effect.
  if (route.body || route.multipart) return { ...invalidBody, allowed: route.multipart ? 'passes' : 400 };
  return { request: { method: 'POST', url }, allowed: 'passes' };
}

async function expectedAnswer(caller: Caller, requirement: Requirement, probe: Probe): Promise<Expected> {
  if (requirement.kind === 'public') return probe.allowed;
  if (caller.role === 'anonymous' || requirement.kind === 'parent') return 401;
  if (requirement.kind === 'session') return probe.allowed;
  if (!grantAllows(caller.grant, requirement, caller.type!)) return 403;
  if (probe.row && !(await rowInScope(t, caller, probe.row.def, probe.row.value, probe.row.purpose))) return 404;
  return probe.allowed;
}

const matches = (expected: Expected, actual: number) => (expected === 'passes' ? actual !== 401 && actual !== 403 && actual < 500 : expected === actual);

/** The routes each test probes: one test per family and report (named by the declarations), one for the rest. */
const GROUPS = [...Object.keys(RESOURCES), ...Object.keys(REPORTS)];
const groupOf = (route: RouteEntry) => (GROUPS.includes(route.group) ? route.group : 'platform');

/** Probes every route of a group with every caller; Log-out last, each caller with a session of its own. */
async function probeGroup(group: string): Promise<Outcome[]> {
  const selected = routes.filter((route) => groupOf(route) === group);
  const ordered = [...selected.filter((r) => r.key !== LOGOUT), ...selected.filter((r) => r.key === LOGOUT)];
  const found: Outcome[] = [];
  for (const route of ordered) {
    const requirement = requirementOf(route);
    if (!requirement) continue;
    const probe = probeOf(route, requirement);
    for (const caller of callers) {
      const expected = await expectedAnswer(caller, requirement, probe);
      const token = route.key === LOGOUT && caller.token ? await loginAgain(caller) : caller.token;
      const response = token ? await t.injectAs(token, probe.request) : await t.app.inject(probe.request);
      found.push({ route: route.key, role: caller.role, expected, actual: response.statusCode, problem: answerProblem(response) ?? (await outOfScope(caller, probe, response)) });
    }
  }
  outcomes.push(...found);
  return found;
}

const LOGOUT = 'POST /api/Account/Logout';

/** The rows of a listing answer that lie outside the caller's scope, as a problem. */
async function outOfScope(caller: Caller, probe: Probe, response: LightMyRequestResponse): Promise<string | undefined> {
  if (!probe.lists || response.statusCode !== 200) return undefined;
  const items = (response.json().data.items ?? []) as Row[];
  const outside: unknown[] = [];
  for (const item of items) if (!(await rowInScope(t, caller, probe.lists, item))) outside.push(item.id);
  return outside.length > 0 ? `lists rows out of scope: ${outside.join(', ')}` : undefined;
}

/** A second session of the caller's account. */
const loginAgain = (caller: Caller) => (caller.loginName!.startsWith('sec-') ? t.login(caller.loginName!, accountPassword(caller.loginName!)) : t.loginAs(caller.loginName!));

beforeAll(async () => {
  t = await createTestApp();
  callers = await matrixCallers(t);
  routes = routeTable(t).filter((route) => route.method === 'GET' || route.method === 'POST');
  const admin = callers.find((c) => c.role === 'companyAdmin')!.token!;
  const agent = callers.find((c) => c.role === 'agent')!;
  const matrixSchool = agent.scope.kind === 'schools' ? agent.scope.schoolIds[0]! : 0;
  for (const def of Object.values(RESOURCES)) samples.set(def.name, await sampleOf(def, admin, matrixSchool));
});
afterAll(() => t.close());

const describeWrong = (found: Outcome[]) =>
  found.filter((o) => !matches(o.expected, o.actual)).map((o) => `${o.role} ${o.route}: expected ${o.expected}, got ${o.actual}`);
const describeProblems = (found: Outcome[]) => found.filter((o) => o.problem).map((o) => `${o.role} ${o.route}: ${o.problem}`);

describe('the authorisation matrix (every documented route × every kind of caller)', () => {
  it('explains every route by a rule derived from the declarations', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.filter((route) => !requirementOf(route)).map((route) => route.key)).toEqual([]);
  });

  // Each group answers 401, 403, 404 or the allowed answer exactly as derived, in the envelope,
  // without a server error or a stack trace.
  it.each([...GROUPS, 'platform'])('answers the calls of %s to each caller as derived', async (group) => {
    const found = await probeGroup(group);
    expect(describeWrong(found)).toEqual([]);
    expect(describeProblems(found)).toEqual([]);
  });

  it('has probed every route with all eight callers, and seen every kind of answer', () => {
    const probed = new Set(outcomes.map((o) => o.route));
    expect(routes.filter((route) => !probed.has(route.key)).map((route) => route.key)).toEqual([]);
    expect(outcomes.length).toBe(routes.length * 8);
    for (const def of Object.values(RESOURCES)) {
      const verbs = isLogFamily(def) ? ['Search', 'Get', 'Export'] : ['Search', 'Get', 'Add', 'Update', 'BatchDelete', 'Export', 'Options'];
      for (const verb of verbs) expect(probed.has(`${verb === 'Get' || verb === 'Export' || verb === 'Options' ? 'GET' : 'POST'} /api/${def.name}/${verb}`), `${def.name}/${verb}`).toBe(true);
    }
    const answers = new Set(outcomes.map((o) => o.actual));
    for (const status of [200, 400, 401, 403, 404, 409]) expect(answers).toContain(status);
  });

});
