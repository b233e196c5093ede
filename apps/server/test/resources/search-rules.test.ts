/**
 * The search rules (engine/search-rules.ts) through the Search routes, on PGlite and PostgreSQL:
 * names by any part, phones by any 4+ digits (fewer: the start), codes by any part in any case,
 * typed LIKE wildcards taken literally, and names sorted in pinyin order where the database can.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { devices, parents, students } from '../../src/db/schema/index.js';
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
  const names = ['王雨桐', '李雨萱', '张子涵', '赵梓萱', '安然', '王%桐', '王_桐', '王\\桐', 'Wang Yutong'];
  await t.db.insert(students).values(names.map((name) => ({ schoolId, name })));
  await t.db.insert(parents).values([
    { schoolId, name: '王家长', phoneNum: '13800130023', relation: 1 },
    { schoolId, name: '李家长', phoneNum: '15900231111', relation: 1 },
    { schoolId, name: '张家长', phoneNum: '13912345678', relation: 1 },
  ]);
  await t.db.insert(devices).values([
    { serialNumber: 'G39Q77', deviceClassCode: 'GATE-G3', schoolId },
    { serialNumber: 'XK-G39Q77-1', deviceClassCode: 'GATE-G3', schoolId },
    { serialNumber: 'H10000Q', deviceClassCode: 'GATE-G3', schoolId },
  ]);
});
afterAll(() => t.close());

async function search(family: string, body: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const response = await t.injectAs(admin, { method: 'POST', url: `/api/${family}/Search`, payload: { schoolId, pageSize: 50, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items as Record<string, unknown>[];
}

const namesFound = async (name: string) => (await search('Student', { name })).map((row) => row.name).sort();

describe('name rule: any part, case-insensitive', () => {
  it('finds 王雨桐 by the two characters 雨桐, and by one character', async () => {
    expect(await namesFound('雨桐')).toEqual(['王雨桐']);
    expect(await namesFound('萱')).toEqual(['李雨萱', '赵梓萱']);
    expect(await namesFound('王雨桐')).toEqual(['王雨桐']);
  });

  it('matches Latin names in any case and keeps the typed order of the characters', async () => {
    expect(await namesFound('yUTo')).toEqual(['Wang Yutong']);
    // Every piece of 桐雨 is in 王雨桐 except the pair itself: no match.
    expect(await namesFound('桐雨')).toEqual([]);
  });

  it('takes %, _ and \\ typed in the box literally', async () => {
    expect(await namesFound('%')).toEqual(['王%桐']);
    expect(await namesFound('_')).toEqual(['王_桐']);
    expect(await namesFound('\\')).toEqual(['王\\桐']);
    expect(await namesFound('王%')).toEqual(['王%桐']);
  });
});

describe('digits rule: any run of 4+ digits, fewer from the start', () => {
  const phonesFound = async (phoneNum: string) => (await search('Parent', { phoneNum })).map((row) => row.name).sort();

  it('finds a phone ending in 0023, and one holding 0023 in the middle', async () => {
    expect(await phonesFound('0023')).toEqual(['李家长', '王家长']);
    expect(await phonesFound('00130023')).toEqual(['王家长']);
  });

  it('matches fewer than 4 digits from the start only', async () => {
    expect(await phonesFound('138')).toEqual(['王家长']);
    expect(await phonesFound('13')).toEqual(['张家长', '王家长']);
    expect(await phonesFound('023')).toEqual([]);
  });
});

describe('code rule: any part, any case', () => {
  it('finds G39Q77 by g39q77, wherever it stands in the serial', async () => {
    const found = (await search('Device', { serialNumber: 'g39q77' })).map((row) => row.serialNumber).sort();
    expect(found).toEqual(['G39Q77', 'XK-G39Q77-1']);
    expect((await search('Device', { serialNumber: '9q77-' })).map((row) => row.serialNumber)).toEqual(['XK-G39Q77-1']);
  });
});

describe('name sort', () => {
  it('sorts names in pinyin order where the database has Chinese collation data, else by code point', async () => {
    const collations = (await t.db.execute(sql`select count(*)::int as n from pg_collation where collname = 'zh-x-icu'`)) as unknown as { rows: { n: number }[] };
    const hasPinyin = Number(collations.rows[0]!.n) > 0;
    const list = await search('Student', { sortField: 'name', sortOrder: 'asc' });
    const chinese = list.map((row) => String(row.name)).filter((name) => /^[\u4e00-\u9fff]+$/.test(name));
    // 安 an, 李 li, 王 wang, 张 zhang, 赵 zhao; by code point 安 5B89 < 张 5F20 < 李 674E < 王 738B < 赵 8D75.
    const expected = hasPinyin ? ['安然', '李雨萱', '王雨桐', '张子涵', '赵梓萱'] : ['安然', '张子涵', '李雨萱', '王雨桐', '赵梓萱'];
    expect(chinese).toEqual(expected);
    expect(t.database.kind === 'postgres' ? hasPinyin : !hasPinyin).toBe(true);
  });
});
