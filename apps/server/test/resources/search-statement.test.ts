/**
 * A Search page's statement is built once per shape and run with each call's values
 * (engine/search-statement.ts), on PGlite and PostgreSQL: the same shape with other values answers
 * other rows, a new shape gets its own statement, and the values keep the encoding a column gives
 * them (a datetime range).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, students } from '../../src/db/schema/index.js';
import { keptPageStatements } from '../../src/resources/engine/search-statement.js';
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

  it('binds datetime bounds as the column encodes them', async () => {
    expect(await found('Device', { createdAtFrom: '2026-02-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-B', 'STMT-C']);
    const kept = keptPageStatements(t.db);
    expect(await found('Device', { createdAtFrom: '2026-03-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-C']);
    expect(await found('Device', { createdAtFrom: '2026-01-01T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-A', 'STMT-B', 'STMT-C']);
    expect(keptPageStatements(t.db)).toBe(kept);
    expect(await found('Device', { createdAtFrom: '2026-01-01T00:00:00.000Z', createdAtTo: '2026-02-28T00:00:00.000Z' }, 'serialNumber')).toEqual(['STMT-A', 'STMT-B']);
  });
});
