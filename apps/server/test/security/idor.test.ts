/**
 * Insecure direct object references, generated over every scoped family and every call its
 * declaration implies: an agent holding every button names another agent's row by id — on Get,
 * History, Update, BatchDelete, each toggle, action and transition, as an Options keyword, as a
 * Search / Export filter and as a reference of its own Add — and is answered "not found" (or
 * nothing), while the row, read back as the company admin, has not changed.
 */
import { REPORTS, RESOURCES, frameOf, isInForm, isLogFamily, toggleVerb, type FieldDef, type ResourceDef } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { md5Hex } from '../../src/platform/passwords.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { demoPeriodRange } from '../helpers/demo-range.js';
import { grantEverything, readWorkbook, sampleTransitionFields, schoolIdsOf, schoolOfRow, userIdOf, validAddBody } from '../resources/fixtures.js';
import { answerProblem, createAccount, type Row } from './support.js';

/** An id no row has (below 2^31: out-of-range ids are a defect of their own). */
const MISSING_ID = 2_000_000_000;

/** The families whose rows belong to a scope (schools or managed accounts); catalogue and log families have none. */
const SCOPED = Object.values(RESOURCES).filter((def) => def.scope.via !== 'global' && !isLogFamily(def));

let t: TestApp;
let admin: string;
let agent: string;
let agentSchools: number[];
let otherSchools: number[];
/** Per family, a row of the other agent's scope. */
const foreign = new Map<string, Row>();

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

const readAsAdmin = async (def: ResourceDef, id: unknown) => {
  const response = await call(admin, 'GET', `/api/${def.name}/Get?id=${id}`);
  return { status: response.statusCode, row: response.json().data as Row };
};

/** A valid value of a declared field, for the fields of an action or a transition. */
async function sampleValue(field: FieldDef): Promise<unknown> {
  switch (field.kind) {
    case 'text':
      return 'idor_probe'.slice(0, field.max ?? 64).padEnd(field.min ?? 0, 'x');
    case 'textarea':
      return 'idor probe';
    case 'phone':
      return '13900001111';
    case 'number':
      return field.min ?? 1;
    case 'money':
      return 100;
    case 'bool':
      return true;
    case 'enum':
      return field.options[0]!.value;
    case 'date':
      return '2024-01-01';
    case 'datetime':
      return '2024-01-01T00:00:00.000Z';
    case 'password':
      return md5Hex('Idor@123');
    case 'reference':
      // An account of the caller's own reach: itself.
      return field.family === 'User' ? userIdOf(t, 'agent1') : undefined;
    default:
      return undefined;
  }
}

async function sampleFields(fields: Record<string, FieldDef> | undefined): Promise<Row> {
  const out: Row = {};
  for (const [name, field] of Object.entries(fields ?? {})) {
    const value = await sampleValue(field);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** A row of the other agent's scope: from the demo, else added there by the admin. */
async function foreignRowOf(def: ResourceDef): Promise<Row> {
  if (def.scope.via === 'account') {
    // Accounts the agent does not manage: the other agent's child account, an external account of its schools.
    const types = def.scope.types;
    if (types.includes('child')) return { id: await createAccount(t, { loginName: `sec-idor-child-${def.name}`, type: 'child', parentId: await userIdOf(t, 'agent2') }) };
    if (types.includes('external')) return { id: await createAccount(t, { loginName: `sec-idor-ext-${def.name}`, type: 'external', schoolIds: [otherSchools[0]!] }) };
    return { id: await userIdOf(t, 'admin') };
  }
  const response = await call(admin, 'POST', `/api/${def.name}/Search`, { pageSize: 200 });
  const found = (response.json().data.items as Row[]).find((row) => otherSchools.includes(schoolOfRow(def, row) as number));
  if (found) return found;
  const added = await call(admin, 'POST', `/api/${def.name}/Add`, await validAddBody(t, def, otherSchools[0]!));
  expect(added.statusCode, added.body).toBe(200);
  return { id: added.json().data.id };
}

beforeAll(async () => {
  t = await createTestApp();
  // Every button: what the agent cannot reach below is kept from it by scope alone.
  await grantEverything(t, 'agent1');
  [admin, agent] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agentSchools, otherSchools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
  for (const def of SCOPED) foreign.set(def.name, await foreignRowOf(def));
  // Scoped log rows an Add may name (a refund's payment): one of the other scope, from the newest page.
  for (const def of Object.values(RESOURCES).filter((family) => isLogFamily(family) && family.scope.via === 'school')) {
    const response = await call(admin, 'POST', `/api/${def.name}/Search`, { pageSize: 200 });
    const found = ((response.json().data?.items ?? []) as Row[]).find((row) => otherSchools.includes(schoolOfRow(def, row) as number));
    if (found) foreign.set(def.name, found);
  }
});
afterAll(() => t.close());

describe.each(SCOPED.map((def) => [def.name, def] as const))("another scope's %s row", (_name, def) => {
  it('is not found by id on every call naming one row, and is left unchanged', async () => {
    const id = foreign.get(def.name)!.id as number;
    const before = await readAsAdmin(def, id);
    expect(before.status).toBe(200);
    const version = before.row.version;

    const calls: [string, 'GET' | 'POST', string, unknown][] = [
      ['Get', 'GET', `/api/${def.name}/Get?id=${id}`, undefined],
      ['Update', 'POST', `/api/${def.name}/Update`, { id, version }],
      ['BatchDelete', 'POST', `/api/${def.name}/BatchDelete`, [id]],
    ];
    // A text field changed by the Update, so an Update that went through would show in the row.
    const [editable] = Object.entries(def.fields).filter(([, f]) => f.kind === 'text' && !f.readOnly && !f.unique && isInForm(f) && !f.pattern);
    if (editable) calls[1]![3] = { id, version, [editable[0]]: 'idor' };
    // A page without Edit refuses Update (403) before any row is looked at: nothing there to leak.
    if (!isLogFamily(def) && !def.views.some((view) => frameOf(view.frame).buttons.includes('update'))) calls.splice(1, 1);
    for (const toggle of def.toggles ?? []) {
      const field = def.fields[toggle.field]!;
      const value = field.kind === 'bool' ? !before.row[toggle.field] : field.kind === 'enum' ? field.options.find((o) => o.value !== before.row[toggle.field])?.value : before.row[toggle.field];
      calls.push([toggleVerb(toggle.field), 'POST', `/api/${def.name}/${toggleVerb(toggle.field)}`, { ids: [id], value }]);
    }
    // An action asking for the refund password gets one (of the right form): the row is looked up before it is weighed.
    for (const action of def.actions ?? []) {
      const reauth = action.reauth ? { reauthPassword: md5Hex('not-the-password') } : {};
      calls.push([action.verb, 'POST', `/api/${def.name}/${action.verb}`, { id, ...(await sampleFields(action.fields)), ...reauth }]);
    }
    if (def.workflow) {
      calls.push(['History', 'GET', `/api/${def.name}/History?id=${id}`, undefined]);
      for (const transition of def.workflow.transitions) {
        const fields = await sampleTransitionFields(t, def, transition).catch(() => sampleFields(transition.fields));
        calls.push([transition.verb, 'POST', `/api/${def.name}/${transition.verb}`, { id, version, ...fields }]);
      }
    }
    if (def.tree) calls.push(['Move', 'POST', `/api/${def.name}/Move`, { id, parentId: null, orderIndex: 0 }]);

    const answers: string[] = [];
    for (const [verb, method, url, payload] of calls) {
      const response = await call(agent, method, url, payload);
      answers.push(`${verb} ${response.statusCode}${answerProblem(response) ? ` ${answerProblem(response)}` : ''}`);
    }
    expect(answers).toEqual(calls.map(([verb]) => `${verb} 404`));

    const after = await readAsAdmin(def, id);
    expect(after.status).toBe(200);
    expect(after.row).toEqual(before.row);
  });

  it('is left out of Options, and of Search and Export filtered by its scope key', async () => {
    const row = (await readAsAdmin(def, foreign.get(def.name)!.id)).row;
    const title = String(row[def.titleField] ?? '');
    const options = await call(agent, 'GET', `/api/${def.name}/Options?limit=100&keyword=${encodeURIComponent(title.slice(0, 20))}`);
    expect(options.statusCode).toBe(200);
    expect((options.json().data as { value: unknown }[]).map((o) => o.value)).not.toContain(row.id);

    if (def.scope.via !== 'school' && def.scope.via !== 'self') return;
    const key = def.scope.via === 'self' ? 'id' : def.scope.field;
    const otherSchool = schoolOfRow(def, row) as number;
    // Options narrow by school only for families that carry one (a school itself is named by keyword above).
    if (def.scope.via === 'school') {
    const byKey = await call(agent, 'GET', `/api/${def.name}/Options?limit=100&schoolId=${otherSchool}`);
    expect(byKey.statusCode).toBe(200);
    expect(byKey.json().data).toEqual([]);
    }
    if (!def.fields[key]?.filter) return;
    const searched = await call(agent, 'POST', `/api/${def.name}/Search`, { pageSize: 50, [key]: otherSchool });
    expect(searched.statusCode, searched.body).toBe(200);
    expect(searched.json().data.items).toEqual([]);
    const exported = await call(agent, 'GET', `/api/${def.name}/Export?${key}=${otherSchool}`);
    expect(exported.statusCode).toBe(200);
    expect((await readWorkbook(exported)).actualRowCount).toBeLessThanOrEqual(1);
  });
});

/** The references of a family's form that name a row of another scoped family. */
const scopedReferences = (def: ResourceDef) =>
  Object.entries(def.fields).filter(
    ([, f]) => f.kind === 'reference' && isInForm(f) && !f.follows && !f.key && RESOURCES[f.family] && RESOURCES[f.family]!.scope.via !== 'global' && RESOURCES[f.family]!.scope.via !== 'account',
  );
const REFERENCING = Object.values(RESOURCES).filter((def) => !isLogFamily(def) && scopedReferences(def).length > 0);

describe.each(REFERENCING.map((def) => [def.name, def] as const))('an Add of %s naming a row of another scope', (_name, def) => {
  it('is refused like a missing row, and nothing is added', async () => {
    const outcomes: { field: string; foreign: { status: number; message: string }; missing: { status: number; message: string } }[] = [];
    for (const [name, field] of scopedReferences(def)) {
      const target = field.kind === 'reference' ? foreign.get(field.family) : undefined;
      if (!target) continue;
      const body = await validAddBody(t, def, agentSchools[0]!);
      const asList = (value: unknown) => (field.kind === 'reference' && field.multiple ? [value] : value);
      const withForeign = await call(agent, 'POST', `/api/${def.name}/Add`, { ...body, [name]: asList(target.id) });
      const withMissing = await call(agent, 'POST', `/api/${def.name}/Add`, { ...(await validAddBody(t, def, agentSchools[0]!)), [name]: asList(MISSING_ID) });
      expect(withForeign.statusCode, `${name}: ${withForeign.body}`).not.toBe(200);
      expect(answerProblem(withForeign)).toBeUndefined();
      const errorOf = (response: typeof withForeign) => {
        const data = response.json();
        const fieldError = (data.data?.errors as { path: string; key?: string }[] | undefined)?.find((e) => e.path === name);
        return { status: response.statusCode, message: fieldError?.key ?? data.key ?? data.message };
      };
      outcomes.push({ field: name, foreign: errorOf(withForeign), missing: errorOf(withMissing) });
    }
    // Out of scope and missing answer the same status and message key: the answer tells nothing of other scopes.
    expect(outcomes.length).toBeGreaterThan(0);
    for (const outcome of outcomes) expect(outcome.foreign, outcome.field).toEqual(outcome.missing);
  });
});

describe('an external account bound to schools of two agents', () => {
  it('is managed by neither agent alone (404 on every write, row unchanged)', async () => {
    const def = RESOURCES.ExternalUser!;
    const id = await createAccount(t, { loginName: 'sec-idor-shared', type: 'external', schoolIds: [agentSchools[0]!, otherSchools[0]!] });
    const before = await readAsAdmin(def, id);
    const answers = [
      (await call(agent, 'POST', `/api/${def.name}/Update`, { id, version: before.row.version, name: 'taken over' })).statusCode,
      ...(await Promise.all((def.toggles ?? []).map(async (toggle) => (await call(agent, 'POST', `/api/${def.name}/${toggleVerb(toggle.field)}`, { ids: [id], value: false })).statusCode))),
      (await call(agent, 'POST', `/api/${def.name}/BatchDelete`, [id])).statusCode,
    ];
    const after = await readAsAdmin(def, id);
    expect({ answers, after: after.row }).toEqual({ answers: answers.map(() => 404), after: before.row });
  });
});

/** Reports over scoped rows, and their filters naming a school or an account (another agent's, below). */
const SCOPED_REPORTS = Object.values(REPORTS).filter((def) => def.scope.via !== 'global');

describe.each(SCOPED_REPORTS.map((def) => [def.name, def] as const))("the report %s filtered by another scope's school or agent", (_name, def) => {
  it('answers no group and zero totals, where the admin sees the rows', async () => {
    const filters = Object.entries(def.filters).filter(([, f]) => f.kind === 'reference' && (f.family === 'School' || f.family === 'User'));
    expect(filters.length).toBeGreaterThan(0);
    let adminSawRows = false;
    const range = await demoPeriodRange(t, def);
    for (const [name, field] of filters) {
      const value = field.kind === 'reference' && field.family === 'School' ? otherSchools[0] : await userIdOf(t, 'agent2');
      const body = { pageIndex: 1, pageSize: 20, ...range, [name]: value };
      const answer = await call(agent, 'POST', `/api/${def.name}/Search`, body);
      expect(answer.statusCode, answer.body).toBe(200);
      const { items, totals } = answer.json().data as { items: Row[]; totals: Record<string, unknown> };
      expect({ name, items, totals: Object.values(totals).filter((total) => Number(total) !== 0) }).toEqual({ name, items: [], totals: [] });
      adminSawRows ||= ((await call(admin, 'POST', `/api/${def.name}/Search`, body)).json().data.items as Row[]).length > 0;
    }
    // The filters name rows that exist: an empty answer is the scope's doing, not the data's.
    expect(adminSawRows).toBe(true);
  });
});
