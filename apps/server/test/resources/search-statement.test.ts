/**
 * A Search page's statement is built once per shape and run with each call's values
 * (engine/search-statement.ts), on PGlite and PostgreSQL: the same shape with other values answers
 * other rows, a new shape gets its own statement, and the values keep the encoding a column gives
 * them (a datetime range). A name part common in the table's rows is read by a walk of the newest ids,
 * from a named statement whose conditions no index serves, once its total is known; a rare one is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { devices, students } from '../../src/db/schema/index.js';
import { isoOfUtcText } from '../../src/resources/engine/query.js';
import { keptPageStatements, WALK_ROWS } from '../../src/resources/engine/search-statement.js';
import { recordSentStatements } from '../helpers/sent-statements.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, schoolLike } from './fixtures.js';

let t: TestApp;
let admin: string;
/** A school of its own, so the rows this file adds are the only ones its searches can see. */
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  schoolId = await schoolLike(t, (await schoolIdsOf(t, 'agent1'))[0]!);
  await t.db.insert(students).values(['王一', '王二', '李一', '张三'].map((name, i) => ({ schoolId, name, gender: i % 2 === 0 ? 1 : 2 })));
  await t.db.insert(devices).values([
    { serialNumber: 'STMT-A', deviceClassCode: 'GATE-G3', schoolId, createdAt: new Date('2026-01-10T08:00:00Z') },
    { serialNumber: 'STMT-B', deviceClassCode: 'GATE-G3', schoolId, createdAt: new Date('2026-02-10T08:00:00Z') },
    { serialNumber: 'STMT-C', deviceClassCode: 'GATE-G3', schoolId, createdAt: new Date('2026-03-10T08:00:00Z') },
  ]);
});
afterAll(() => t.close());

async function found(family: string, body: Record<string, unknown>, field: string): Promise<unknown[]> {
  const response = await t.injectAs(admin, { method: 'POST', url: `/api/${family}/Search`, payload: { schoolId, pageSize: 50, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().data.items as Record<string, unknown>[]).map((row) => row[field]).sort();
}

describe('page statements per shape', () => {
  it('answers each value of one shape with its own rows, from one statement', async () => {
    expect(await found('Student', { name: '王' }, 'name')).toEqual(['王一', '王二']);
    const kept = keptPageStatements(t.db);
    expect(await found('Student', { name: '李' }, 'name')).toEqual(['李一']);
    expect(await found('Student', { name: '一' }, 'name')).toEqual(['李一', '王一']);
    expect(keptPageStatements(t.db)).toBe(kept);
  });

  it('keeps a statement for a new shape: another filter, another sort, another page', async () => {
    const kept = keptPageStatements(t.db);
    expect(await found('Student', { name: '王', gender: 2 }, 'name')).toEqual(['王二']);
    expect(keptPageStatements(t.db)).toBe(kept + 1);
    expect(await found('Student', { name: '王', sortField: 'name', sortOrder: 'asc' }, 'name')).toEqual(['王一', '王二']);
    expect(keptPageStatements(t.db)).toBe(kept + 2);
    // Another page and page size bind other values into the same statement (pinyin or code-point
    // order depends on the database: the two pages together hold both names).
    const pages = [];
    for (const pageIndex of [1, 2]) pages.push(...(await found('Student', { name: '王', sortField: 'name', sortOrder: 'asc', pageIndex, pageSize: 1 }, 'name')));
    expect(pages.sort()).toEqual(['王一', '王二']);
    expect(keptPageStatements(t.db)).toBe(kept + 2);
  });

  it('answers each time as toISOString writes it, whatever its milliseconds', async () => {
    const times = ['2026-04-01T08:00:00.000Z', '2026-04-01T08:00:00.100Z', '2026-04-01T08:00:00.120Z', '2026-04-01T08:00:00.123Z', '1999-12-31T23:59:59.999Z'];
    await t.db.insert(devices).values(times.map((time, i) => ({ serialNumber: `STMT-T${i}`, deviceClassCode: 'GATE-G3', schoolId, createdAt: new Date(time) })));
    expect(await found('Device', { serialNumber: 'STMT-T' }, 'createdAt')).toEqual([...times].sort());
    // The devices of the range tests below are this school's others.
    await t.db.execute(sql`delete from devices where serial_number like 'STMT-T%'`);
    // PostgreSQL's texts of those times, rewritten without a Date; any other text is left to one.
    expect(isoOfUtcText('2026-04-01 08:00:00.12+00')).toBe('2026-04-01T08:00:00.120Z');
    expect(isoOfUtcText('2026-04-01 08:00:00.123456+00')).toBe(new Date('2026-04-01 08:00:00.123456+00').toISOString());
    expect(isoOfUtcText('2026-04-01 16:00:00+08')).toBeUndefined();
    expect(isoOfUtcText('12026-04-01 08:00:00+00')).toBeUndefined();
  });

  it('binds datetime bounds as the column encodes them', async () => {
    expect(await found('Device', { createdAtFrom: '2026-02-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-B', 'STMT-C']);
    const kept = keptPageStatements(t.db);
    expect(await found('Device', { createdAtFrom: '2026-03-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-C']);
    expect(await found('Device', { createdAtFrom: '2026-01-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-A', 'STMT-B', 'STMT-C']);
    expect(keptPageStatements(t.db)).toBe(kept);
    expect(await found('Device', { createdAtFrom: '2026-01-01T00:00:00.000Z', createdAtTo: '2026-02-28T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-A', 'STMT-B']);
  });
});

describe('a common name part walks the newest ids', () => {
  /** Students named 周… in agent1's first school: enough that the first three pages of 5 are found within WALK_ROWS rows of the table. */
  let common: number;
  /** The table's rows as the planner counts them after the inserts. */
  let tableRows: number;
  let agent1: string;

  beforeAll(async () => {
    const agentSchool = (await schoolIdsOf(t, 'agent1'))[0]!;
    await t.db.execute(sql`analyze students`);
    const reltuples = async () => {
      const result = (await t.db.execute(sql`select reltuples::int as n from pg_class where oid = 'students'::regclass`)) as unknown as { rows: { n: number }[] };
      return result.rows[0]!.n;
    };
    common = Math.ceil(((3 * 5 + 1) * ((await reltuples()) + 200)) / WALK_ROWS) + 10;
    await t.db.insert(students).values(Array.from({ length: common }, (_, i) => ({ schoolId: agentSchool, name: `周${i}号`, gender: 1 })));
    await t.db.insert(students).values({ schoolId: agentSchool, name: '欧阳独一', gender: 2 });
    await t.db.execute(sql`analyze students`);
    tableRows = await reltuples();
    agent1 = await t.loginAs('agent1');
  });

  async function page(body: Record<string, unknown>): Promise<{ ids: number[]; total: number }> {
    const response = await t.injectAs(agent1, { method: 'POST', url: '/api/Student/Search', payload: { pageSize: 5, ...body } });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as { items: { id: number }[]; total: number };
    return { ids: data.items.map((row) => row.id), total: data.total };
  }

  it('answers the same page from a statement of its own, named, once the total is kept', async () => {
    const first = await page({ name: '周' });
    // The demo's own 周s in agent1's schools besides these.
    expect(first.total).toBeGreaterThanOrEqual(common);
    const kept = keptPageStatements(t.db);
    const { sent, names, stop } = recordSentStatements();
    let again;
    try {
      again = await page({ name: '周' });
    } finally {
      stop();
    }
    expect(again).toEqual(first);
    // One statement more: the walk's, kept beside the indexes' one.
    expect(keptPageStatements(t.db)).toBe(kept + 1);
    if (process.env.TEST_DB === 'postgres') {
      // Besides the session's and (once) the table's row count, the page: named, its conditions served
      // by no index, its bounds written in.
      const pages = sent.flatMap((text, i) => (text.includes('from "students"') ? [{ text, name: names[i] }] : []));
      expect(pages, sent.join('\n')).toHaveLength(1);
      expect(pages[0]!.name).toMatch(/^campus_walk_/);
      expect(pages[0]!.text).toContain('coalesce("students"."school_id" = any(');
      expect(pages[0]!.text).not.toContain('search_grams');
      expect(pages[0]!.text).toContain('limit 6 offset 0');
    }
    // The next pages walk on, and the walk's pages follow the first's without a gap.
    const second = await page({ name: '周', pageIndex: 2 });
    const third = await page({ name: '周', pageIndex: 2 });
    expect(third).toEqual(second);
    expect(second.ids.every((id) => id < Math.min(...first.ids))).toBe(true);
  });

  it('reads a rare part, a sorted page and a deep page by the indexes, as before', async () => {
    const { total } = await page({ name: '周' });
    // The first page whose rows a walk would not find within WALK_ROWS rows of the table.
    const deep = Math.ceil((total * WALK_ROWS) / tableRows / 5) + 1;
    const kept = keptPageStatements(t.db);
    for (const body of [{ name: '欧阳' }, { name: '周', sortField: 'name', sortOrder: 'asc' }, { name: '周', pageIndex: deep }]) {
      const first = await page(body);
      expect(await page(body)).toEqual(first);
    }
    // One statement for the sorted page; the rare part and the deep page read by the first page's.
    expect(keptPageStatements(t.db)).toBe(kept + 1);
  });

  it('keeps a walk statement per page bounds: page 2 has its own', async () => {
    await page({ name: '周', pageIndex: 2 });
    const kept = keptPageStatements(t.db);
    await page({ name: '周', pageIndex: 3 });
    await page({ name: '周', pageIndex: 3 });
    expect(keptPageStatements(t.db)).toBe(kept + 1);
  });
});
