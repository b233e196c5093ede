import { REPORTS, frameOf, isExported, isLogFamily, type FieldDef, type ResourceDef, type StateValue, type TransitionDef } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { demoPeriodRange } from '../helpers/demo-range.js';
import { agentOwnerOfRow, families, grantEverything, grantReadOnly, insertLogSample, readWorkbook, sampleTransitionFields, schoolIdsOf, schoolOfRow, userIdOf, validAddBody, viewQuery } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let child1: string;
let readOnlyUser: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  // agent1 holds every button: what it cannot reach below is kept from it by scope alone.
  await grantEverything(t, 'agent1');
  // The child's own grant reaches every page too (its effective grant is still cut to agent1's), so
  // families no child account holds by default (the Operations pages) are compared as well.
  await grantEverything(t, 'child1');
  await grantReadOnly(t, 'sales2', [...new Set(families.flatMap((f) => f.views.map((v) => frameOf(v.frame).fixedId)))]);
  [admin, agent1, child1, readOnlyUser] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('child1'), t.loginAs('sales2')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.injectAs(token, { method, url, ...(payload === undefined ? {} : { payload: payload as Row }) });

async function search(token: string, def: ResourceDef, body: Row = {}): Promise<{ items: Row[]; total: number; totalIsCapped: boolean; hasMore?: boolean }> {
  const response = await call(token, 'POST', `/api/${def.name}/Search?${viewQuery(def)}`, { pageSize: 200, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** A filter value taken from a stored row, and the test a matching row must pass. */
function filterFromRow(name: string, field: FieldDef, row: Row): { body: Row; matches: (r: Row) => boolean } | undefined {
  const value = row[name];
  if (value === null || value === undefined || field.filterAll === value) return undefined;
  if (Array.isArray(value)) {
    // A multiple reference filters by one of its rows.
    if (value.length === 0) return undefined;
    return { body: { [name]: value[0] }, matches: (r) => (r[name] as unknown[]).includes(value[0]) };
  }
  switch (field.filter) {
    case 'equals':
      return { body: { [name]: value }, matches: (r) => r[name] === value };
    case 'digits': {
      // Under 4 digits a digits filter matches the start (search-rules.ts).
      const prefix = String(value).slice(0, 2);
      return { body: { [name]: prefix }, matches: (r) => String(r[name]).startsWith(prefix) };
    }
    case 'name':
    case 'code': {
      const part = String(value).slice(1, 3) || String(value);
      return { body: { [name]: part }, matches: (r) => String(r[name]).toLowerCase().includes(part.toLowerCase()) };
    }
    case 'range':
      return { body: { [`${name}From`]: value, [`${name}To`]: value }, matches: (r) => r[name] === value };
    case 'in':
      return { body: { [name]: [value] }, matches: (r) => r[name] === value };
    default:
      return undefined;
  }
}

/** The state a transition reaches with the given fields (School's Examine picks it by `isPassed`). */
const targetState = (transition: TransitionDef, fields: Row): StateValue =>
  typeof transition.to === 'object' ? transition.to.cases[fields[transition.to.by] ? 'true' : 'false'] : transition.to;

/** Adds a family's sample row as admin and answers its id. */
async function addSample(def: ResourceDef, extra: Row = {}): Promise<number> {
  const response = await call(admin, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, { ...(await validAddBody(t, def, agent1Schools[0]!)), ...extra });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

// The generic checks below need a sample of every declared family: a family without one fails here,
// by name, rather than being left untested.
describe('samples of the declared families', () => {
  it('has a valid Add body for every writable family and the fields of every first transition', async () => {
    const missing: string[] = [];
    for (const def of families.filter((f) => !isLogFamily(f))) {
      await validAddBody(t, def, agent1Schools[0]!).catch(() => missing.push(def.name));
      const first = def.workflow?.transitions.find((tr) => tr.from.includes(def.workflow!.initial));
      if (def.workflow && !first) missing.push(`${def.name}: no transition from its initial state`);
      if (first) await sampleTransitionFields(t, def, first).catch(() => missing.push(`${def.name}.${first.verb}`));
    }
    expect(missing).toEqual([]);
  });

  it('has a stored sample row of every log family', async () => {
    const missing: string[] = [];
    for (const def of families.filter(isLogFamily)) await insertLogSample(t, def, agent1Schools[0]!).catch(() => missing.push(def.name));
    expect(missing).toEqual([]);
  });
});

/** Whether a page of the family offers Edit: rows moved only by their actions refuse Update to everyone. */
const hasUpdate = (def: ResourceDef) => def.views.some((view) => frameOf(view.frame).buttons.includes('update'));

describe.each(families.map((def) => [def.name, def] as const))('/api/%s', (_name, def) => {
  const filterFields = Object.entries(def.fields).filter(([, f]) => f.filter);

  // Log families are read-only: Search (no count, key paged), Get and Export; no write route at all.
  if (isLogFamily(def)) {
    it('answers a page of rows newest first, saying whether more follow', async () => {
      const page = await search(admin, def, { pageSize: 2 });
      expect(page.items.length).toBeLessThanOrEqual(2);
      expect(typeof page.hasMore).toBe('boolean');
      const [first] = page.items;
      if (first) expect((await call(admin, 'GET', `/api/${def.name}/Get?id=${first.id}&${viewQuery(def)}`)).json().data).toMatchObject(first);
    });

    it('has no write route', async () => {
      for (const verb of ['Add', 'Update', 'BatchDelete']) {
        expect((await call(admin, 'POST', `/api/${def.name}/${verb}?${viewQuery(def)}`, verb === 'BatchDelete' ? [1] : { id: 1 })).statusCode).toBe(404);
      }
    });

    // A log whose page offers no export (the SMS outbox: live codes) refuses it even to the company admin.
    const isExportable = def.views.some((view) => frameOf(view.frame).buttons.includes('export'));
    if (!isExportable) {
      it('refuses Export: its page offers none', async () => {
        expect((await call(admin, 'GET', `/api/${def.name}/Export?${viewQuery(def)}`)).statusCode).toBe(403);
      });
    }

    it.runIf(isExportable)('exports the rows of the search as a workbook with the labelled header', async () => {
      const { items, hasMore } = await search(admin, def);
      const sheet = await readWorkbook(await call(admin, 'GET', `/api/${def.name}/Export?${viewQuery(def)}&lang=en`));
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(Object.values(def.fields).filter(isExported).map((f) => f.label.en));
      if (!hasMore) expect(sheet.actualRowCount - 1).toBe(items.length);
      expect((await call(readOnlyUser, 'GET', `/api/${def.name}/Export?${viewQuery(def)}`)).statusCode).toBe(403);
    });
  } else {
    crudChecks();
  }

  it.each(filterFields.map(([name, f]) => [name, f] as const))('filters by %s', async (name, field) => {
    const { items } = await search(admin, def);
    const sample = items.find((row) => filterFromRow(name, field, row));
    if (!sample) return; // no stored value to filter by in the demo data
    const filter = filterFromRow(name, field, sample)!;
    const filtered = await search(admin, def, filter.body);
    expect(filtered.items.map((r) => r.id)).toContain(sample.id);
    expect(filtered.items.filter((r) => !filter.matches(r))).toEqual([]);
  });

  function crudChecks() {
  it('answers a page of rows with a total', async () => {
    const page = await search(admin, def, { pageSize: 2 });
    expect(page.items.length).toBeLessThanOrEqual(2);
    expect(page.total).toBeGreaterThanOrEqual(page.items.length);
    expect(page.totalIsCapped).toBe(false);
  });

  it('refuses an Add without its required fields, naming each field', async () => {
    const response = await call(admin, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, {});
    expect(response.statusCode).toBe(400);
    const paths = response.json().data.errors.map((e: { path: string }) => e.path);
    const required = Object.entries(def.fields).filter(([, f]) => f.required && !f.readOnly && f.form !== false);
    for (const [name] of required) expect(paths).toContain(name);
  });

  it('adds, reads, updates with a version check and deletes a row', async () => {
    const body = await validAddBody(t, def, agent1Schools[0]!);
    const added = await call(admin, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, body);
    expect(added.statusCode, added.body).toBe(200);
    const { id } = added.json().data;

    const got = (await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).json().data;
    expect(got.id).toBe(id);
    expect(got.version).toBe(1);

    const [editable] = Object.entries(def.fields).filter(([, f]) => f.kind === 'text' && !f.readOnly && !f.unique && f.form !== false && !f.pattern);
    const change = editable ? { [editable[0]]: `改${id}` } : {};
    // A page without an Edit button (rows moved only by their actions) refuses Update even to the company admin.
    if (!hasUpdate(def)) {
      expect((await call(admin, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id, version: 1, ...change })).statusCode).toBe(403);
    } else {
      const stale = await call(admin, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id, version: 2, ...change });
      expect(stale.statusCode).toBe(409);
      const updated = await call(admin, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id, version: 1, ...change });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().data.version).toBe(2);
      if (editable) {
        const after = (await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).json().data;
        expect(after[editable[0]]).toBe(`改${id}`);
      }
    }

    // One unknown id: nothing is deleted.
    const partial = await call(admin, 'POST', `/api/${def.name}/BatchDelete?${viewQuery(def)}`, [id, 999_999]);
    expect(partial.statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).statusCode).toBe(200);
    const deleted = await call(admin, 'POST', `/api/${def.name}/BatchDelete?${viewQuery(def)}`, [id]);
    expect(deleted.json().data).toEqual({ deleted: 1 });
    expect((await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).statusCode).toBe(404);
  });

  it('exports the search as a workbook with the labelled header and every row', async () => {
    const { total } = await search(admin, def);
    const response = await call(admin, 'GET', `/api/${def.name}/Export?${viewQuery(def)}&lang=en`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readWorkbook(response);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(Object.values(def.fields).filter(isExported).map((f) => f.label.en));
    expect(sheet.actualRowCount - 1).toBe(total);
  });

  it('answers 403 to a caller without the button', async () => {
    expect((await call(readOnlyUser, 'POST', `/api/${def.name}/Add?${viewQuery(def)}`, {})).statusCode).toBe(403);
    expect((await call(readOnlyUser, 'POST', `/api/${def.name}/BatchDelete?${viewQuery(def)}`, [1])).statusCode).toBe(403);
    expect((await call(readOnlyUser, 'GET', `/api/${def.name}/Export?${viewQuery(def)}`)).statusCode).toBe(403);
  });
  }

  if (def.workflow) {
    const workflow = def.workflow;
    it('runs the first transition on a sample row: state, version and history follow', async () => {
      const id = await addSample(def);
      const transition = workflow.transitions.find((tr) => tr.from.includes(workflow.initial))!;
      const fields = await sampleTransitionFields(t, def, transition);
      const moved = await call(admin, 'POST', `/api/${def.name}/${transition.verb}?${viewQuery(def)}`, { id, version: 1, ...fields });
      expect(moved.statusCode, moved.body).toBe(200);
      const to = targetState(transition, fields);
      expect(moved.json().data).toEqual({ id, version: 2, state: to });
      expect((await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).json().data[workflow.field]).toBe(to);
      const history = (await call(admin, 'GET', `/api/${def.name}/History?id=${id}&${viewQuery(def)}`)).json().data as Row[];
      expect(history.map((entry) => [entry.verb, entry.from, entry.to])).toEqual([[transition.verb, workflow.initial, to]]);
    });
  }

  if (def.tree) {
    const { parentField } = def.tree;
    it('adds a sample row under another, answers it nested in the Tree and moves it to the top', async () => {
      const parent = await addSample(def);
      const child = await addSample(def, { [parentField]: parent });
      type Node = Row & { children?: Node[] };
      const tree = async () => (await call(admin, 'GET', `/api/${def.name}/Tree?${viewQuery(def)}`)).json().data as Node[];
      expect((await tree()).find((node) => node.id === parent)?.children?.map((node) => node.id)).toEqual([child]);
      const moved = await call(admin, 'POST', `/api/${def.name}/Move?${viewQuery(def)}`, { id: child, parentId: null, orderIndex: 0 });
      expect(moved.statusCode, moved.body).toBe(200);
      const roots = await tree();
      expect(roots[0]!.id).toBe(child);
      expect(roots.find((node) => node.id === parent)?.children ?? []).toEqual([]);
      // Under its own child: a cycle, refused.
      expect((await call(admin, 'POST', `/api/${def.name}/Move?${viewQuery(def)}`, { id: parent, parentId: child, orderIndex: 0 })).statusCode).toBe(200);
      expect((await call(admin, 'POST', `/api/${def.name}/Move?${viewQuery(def)}`, { id: child, parentId: parent, orderIndex: 0 })).statusCode).toBe(400);
    });
  }

  if (def.parent) {
    const { field } = def.parent;
    it("lists a sample row by its parent, as the parent's drawer tab does", async () => {
      // A log family (a parent's notice receipts) has no Add: its sample was inserted with the others.
      const id = isLogFamily(def) ? (await search(admin, def, { pageSize: 1 })).items[0]!.id : await addSample(def);
      const { [field]: parentId } = (await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).json().data;
      const tab = await search(admin, def, { [field]: parentId });
      expect(tab.items.map((row) => row.id)).toContain(id);
      expect(tab.items.every((row) => row[field] === parentId)).toBe(true);
    });
  }

  // Accounts are scoped by who manages them, not by school: test/resources/accounts.test.ts covers them.
  if (def.scope.via === 'global' || def.scope.via === 'account') return;

  it("keeps another agent's rows from an agent: not listed, not exported, 404 on read, update and delete", async () => {
    const own = await search(agent1, def);
    expect(own.items.length).toBeGreaterThan(0);
    // Read now: samples of families kept one per school (a service config) add schools to agent1.
    const ownSchools = await schoolIdsOf(t, 'agent1');
    const [agent1Id, agent2Id] = await Promise.all([userIdOf(t, 'agent1'), userIdOf(t, 'agent2')]);
    // A row in none of its schools is agent1's only when the family says agent1 owns it (its fund account).
    const outside = own.items.filter((row) => !ownSchools.includes(schoolOfRow(def, row) as number));
    const owners = await Promise.all(outside.map((row) => agentOwnerOfRow(t, def, row)));
    expect(outside.filter((_, i) => owners[i] !== agent1Id)).toEqual([]);

    const all = await search(admin, def);
    const foreign = all.items.find((row) => agent2Schools.includes(schoolOfRow(def, row) as number))!;
    expect(foreign).toBeDefined();
    if (def.scope.via === 'school' && def.scope.agentOwner) {
      // Owned rows outside every school: agent1 reads its own and writes neither; agent2's it never reaches.
      const unschooled = all.items.filter((row) => schoolOfRow(def, row) === null);
      const unschooledOwners = await Promise.all(unschooled.map((row) => agentOwnerOfRow(t, def, row)));
      const mine = unschooled.find((_, i) => unschooledOwners[i] === agent1Id);
      const theirs = unschooled.find((_, i) => unschooledOwners[i] === agent2Id);
      expect(mine, 'a row agent1 owns').toBeDefined();
      expect(theirs, 'a row agent2 owns').toBeDefined();
      expect((await call(agent1, 'GET', `/api/${def.name}/Get?id=${mine!.id}&${viewQuery(def)}`)).statusCode).toBe(200);
      expect((await call(agent1, 'GET', `/api/${def.name}/Get?id=${theirs!.id}&${viewQuery(def)}`)).statusCode).toBe(404);
      if (!isLogFamily(def)) {
        expect((await call(agent1, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id: mine!.id, version: mine!.version })).statusCode).toBe(hasUpdate(def) ? 404 : 403);
        expect((await call(agent1, 'POST', `/api/${def.name}/BatchDelete?${viewQuery(def)}`, [mine!.id])).statusCode).toBe(404);
      }
    }
    const id = foreign.id as number;
    expect((await call(agent1, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).statusCode).toBe(404);
    // A log family has no Update route at all; a page without Edit refuses it before looking at the row.
    expect((await call(agent1, 'POST', `/api/${def.name}/Update?${viewQuery(def)}`, { id, version: foreign.version })).statusCode).toBe(isLogFamily(def) || hasUpdate(def) ? 404 : 403);
    expect((await call(agent1, 'POST', `/api/${def.name}/BatchDelete?${viewQuery(def)}`, [id])).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/${def.name}/Get?id=${id}&${viewQuery(def)}`)).statusCode).toBe(200);

    const exported = await readWorkbook(await call(agent1, 'GET', `/api/${def.name}/Export?${viewQuery(def)}`));
    // A log answers no total: a page that says more follow holds fewer rows than the export.
    if (isLogFamily(def) && own.hasMore) expect(exported.actualRowCount - 1).toBeGreaterThan(own.items.length);
    else expect(exported.actualRowCount - 1).toBe(isLogFamily(def) ? own.items.length : own.total);
  });

  it("shows a child account exactly its agent's rows", async () => {
    const [own, child] = await Promise.all([search(agent1, def), search(child1, def)]);
    expect(child.items.map((r) => r.id)).toEqual(own.items.map((r) => r.id));
  });
});

// Reports are declared families too: each answers its rows with totals, and exports them.
describe.each(Object.values(REPORTS).map((def) => [def.name, def] as const))('/api/%s (report)', (name, def) => {
  const view = `view=${def.views[0]!.frame}`;
  it('answers rows with totals and exports them with a totals row', async () => {
    const range = await demoPeriodRange(t, def);
    const page = await call(admin, 'POST', `/api/${name}/Search?${view}`, { pageIndex: 1, pageSize: 20, ...range });
    expect(page.statusCode, page.body).toBe(200);
    const { items, totals } = page.json().data;
    expect(items.length).toBeGreaterThan(0);
    expect(Object.keys(totals)).toEqual(expect.arrayContaining(Object.keys(def.measures)));
    const sheet = await readWorkbook(await call(admin, 'GET', `/api/${name}/Export?${view}&lang=en&${new URLSearchParams(range)}`));
    expect(sheet.actualRowCount).toBeGreaterThan(2);
  });
});
