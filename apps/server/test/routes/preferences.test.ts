import { MAX_FILTER_VIEWS, PREFERENCE_PATHS, type PagePreferences, type TableSettings } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let admin: string;
let agent1: string;
const page = 'schoolManage.School';
const table: TableSettings = {
  hidden: ['address'],
  order: ['schoolName', 'id'],
  widths: { schoolName: 240 },
  pinned: { schoolName: 'left' },
  density: 'small',
  pageSize: 50,
};

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
});
afterAll(() => t.close());

async function call(token: string, path: string, payload: unknown) {
  return t.injectAs(token, { method: 'POST', url: path, payload: payload as object });
}

async function preferencesOf(token: string, of = page): Promise<PagePreferences> {
  const response = await t.injectAs(token, { method: 'GET', url: `${PREFERENCE_PATHS.get}?page=${encodeURIComponent(of)}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as PagePreferences;
}

describe('POST /api/Preference/SaveTable', () => {
  it("keeps the caller's table layout per page, apart from every other user's, until reset", async () => {
    expect(await preferencesOf(admin)).toEqual({ page, table: null, views: [] });
    const saved = await call(admin, PREFERENCE_PATHS.saveTable, { page, table });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await preferencesOf(admin)).table).toEqual(table);
    // Another user, and another page of the same user, are untouched.
    expect((await preferencesOf(agent1)).table).toBeNull();
    expect((await preferencesOf(admin, 'studentInfo.Student')).table).toBeNull();

    const changed = await call(admin, PREFERENCE_PATHS.saveTable, { page, table: { ...table, density: 'large' } });
    expect((changed.json().data as PagePreferences).table?.density).toBe('large');

    const reset = await call(admin, PREFERENCE_PATHS.resetTable, { page });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await preferencesOf(admin)).table).toBeNull();
  });

  it('refuses unknown pages, unknown fields and unbounded values with field errors', async () => {
    const cases: [unknown, string][] = [
      [{ page: 'noSuchPage.School', table }, 'page'],
      [{ page: 'schoolManage.NoSuchFamily', table }, 'page'],
      [{ page: "schoolManage.School'; drop table users", table }, 'page'],
      [{ page, table: { ...table, pageSize: 10_000 } }, 'table.pageSize'],
      [{ page, table: { ...table, widths: { schoolName: 5 } } }, 'table.widths.schoolName'],
      [{ page, table: { ...table, density: 'huge' } }, 'table.density'],
      [{ page, table: { ...table, hidden: Array.from({ length: 500 }, (_, i) => `c${i}`) } }, 'table.hidden'],
      [{ page, table: { ...table, script: '<b>' } }, 'table'],
    ];
    for (const [payload, path] of cases) {
      const response = await call(admin, PREFERENCE_PATHS.saveTable, payload);
      expect(response.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`).toBe(400);
      const errors = (response.json().data.errors as { path: string }[]).map((error) => error.path);
      expect(errors, response.body).toContain(path);
    }
  });

  it('answers 401 without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${PREFERENCE_PATHS.get}?page=${page}` });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/Preference/SaveView', () => {
  const viewPage = 'studentInfo.Student';

  it('saves, replaces by name and deletes the caller’s presets, keeping the table layout', async () => {
    await call(agent1, PREFERENCE_PATHS.saveTable, { page: viewPage, table });
    const first = await call(agent1, PREFERENCE_PATHS.saveView, { page: viewPage, view: { name: '一年级', filters: { name: '王', state: [1, 2] } } });
    expect(first.statusCode, first.body).toBe(200);
    await call(agent1, PREFERENCE_PATHS.saveView, { page: viewPage, view: { name: 'Boys', filters: { sex: 1 } } });
    await call(agent1, PREFERENCE_PATHS.saveView, { page: viewPage, view: { name: '一年级', filters: { name: '李' } } });
    const saved = await preferencesOf(agent1, viewPage);
    expect(saved.views).toEqual([
      { name: 'Boys', filters: { sex: 1 } },
      { name: '一年级', filters: { name: '李' } },
    ]);
    expect(saved.table).toEqual(table);
    expect((await preferencesOf(admin, viewPage)).views).toEqual([]);

    await call(agent1, PREFERENCE_PATHS.deleteView, { page: viewPage, name: 'Boys' });
    expect((await preferencesOf(agent1, viewPage)).views.map((view) => view.name)).toEqual(['一年级']);
  });

  it(`keeps at most ${MAX_FILTER_VIEWS} presets per page and refuses oversized ones`, async () => {
    const boundedPage = 'teacherInfo.Teacher';
    // Saved at once: the row lock keeps every one of them.
    await Promise.all(
      Array.from({ length: MAX_FILTER_VIEWS }, (_, i) => call(admin, PREFERENCE_PATHS.saveView, { page: boundedPage, view: { name: `v${i}`, filters: { name: String(i) } } })),
    );
    expect((await preferencesOf(admin, boundedPage)).views).toHaveLength(MAX_FILTER_VIEWS);
    const over = await call(admin, PREFERENCE_PATHS.saveView, { page: boundedPage, view: { name: 'one more', filters: {} } });
    expect(over.statusCode).toBe(400);
    expect(over.json().data.errors[0].path).toBe('view');
    // Replacing one by name is still allowed at the bound.
    const replaced = await call(admin, PREFERENCE_PATHS.saveView, { page: boundedPage, view: { name: 'v0', filters: { name: 'x' } } });
    expect(replaced.statusCode, replaced.body).toBe(200);

    const huge = await call(admin, PREFERENCE_PATHS.saveView, { page, view: { name: 'huge', filters: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x'.repeat(190)])) } });
    expect(huge.statusCode).toBe(400);
    const blank = await call(admin, PREFERENCE_PATHS.saveView, { page, view: { name: '  ', filters: {} } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().data.errors[0].path).toBe('view.name');
  });
});
