import { EducationDirectory, resourceOfFrame } from '@campus/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { educationDirectories, parentStudents, parents, schoolClasses, students } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, readWorkbook, schoolIdsOf, unique } from './fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;
let agent1Schools: number[];
let agent2Schools: number[];

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1Schools, agent2Schools] = await Promise.all([schoolIdsOf(t, 'agent1'), schoolIdsOf(t, 'agent2')]);
});
afterAll(() => t.close());

const post = (token: string, url: string, payload: unknown) => t.injectAs(token, { method: 'POST', url, payload: payload as object });
const get = async (token: string, url: string) => (await t.injectAs(token, { method: 'GET', url })).json().data;
const phone = () => `1573${unique().padStart(7, '0').slice(-7)}`;
const studentsOf = (schoolId: number, count: number) => t.db.select().from(students).where(eq(students.schoolId, schoolId)).orderBy(students.id).limit(count);
const linksOf = async (parentId: number) =>
  (await t.db.select({ id: parentStudents.studentId }).from(parentStudents).where(eq(parentStudents.parentId, parentId))).map((link) => link.id).sort((a, b) => a - b);

describe('link tables kept by the engine', () => {
  it('stores nothing when one linked id does not exist: the row and its links are one transaction', async () => {
    const [child] = await studentsOf(agent1Schools[0]!, 1);
    const phoneNum = phone();
    const refused = await post(agent1, '/api/Parent/Add', { phoneNum, name: '家长', schoolId: agent1Schools[0], studentIds: [child!.id, 999_999] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors).toMatchObject([{ path: 'studentIds', key: 'validation.referenceNotFound', message: 'Linked students not found' }]);
    expect(await t.db.select().from(parents).where(eq(parents.phoneNum, phoneNum))).toEqual([]);
  });

  it('leaves the links unchanged when an Update names a missing id', async () => {
    const [first, second] = await studentsOf(agent1Schools[0]!, 2);
    const { id } = (await post(agent1, '/api/Parent/Add', { phoneNum: phone(), name: '家长', schoolId: agent1Schools[0], studentIds: [first!.id] })).json().data;
    const refused = await post(agent1, '/api/Parent/Update', { id, version: 1, name: '改名', studentIds: [second!.id, 999_999] });
    expect(refused.statusCode).toBe(400);
    expect(await linksOf(id)).toEqual([first!.id]);
    expect((await get(agent1, `/api/Parent/Get?id=${id}`)).name).toBe('家长');
  });

  it('answers ids and names on Search and Export, and filters by one linked row', async () => {
    const [first, second] = await studentsOf(agent1Schools[0]!, 2);
    const name = `两孩${unique()}`;
    const { id } = (await post(agent1, '/api/Parent/Add', { phoneNum: phone(), name, schoolId: agent1Schools[0], studentIds: [first!.id, second!.id] })).json().data;
    const page = (await post(agent1, '/api/Parent/Search', { name, pageSize: 10 })).json().data;
    expect(page.items).toEqual([expect.objectContaining({ id, studentIds: [first!.id, second!.id], studentIdsLabel: [first!.name, second!.name] })]);
    const byChild = (await post(agent1, '/api/Parent/Search', { studentIds: second!.id, pageSize: 200 })).json().data.items.map((row: Row) => row.id);
    expect(byChild).toContain(id);
    const sheet = await readWorkbook(await t.injectAs(agent1, { method: 'GET', url: `/api/Parent/Export?name=${encodeURIComponent(name)}&lang=en` }));
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (sheet.getRow(2).values as unknown[]).slice(1)[header.indexOf('Linked students')];
    expect(cell).toBe(`${first!.name}, ${second!.name}`);
  });

  it("shows a seller its team's members: account scope hides no names", async () => {
    const [team] = (await post(await t.loginAs('sales2'), '/api/SalesTeam/Search', { name: '华东销售一组' })).json().data.items;
    expect(team.memberIdsLabel).toEqual(['王销售', '李销售']);
  });

  it('clears the set with an empty list', async () => {
    const [first] = await studentsOf(agent1Schools[0]!, 1);
    const { id } = (await post(agent1, '/api/Parent/Add', { phoneNum: phone(), name: '家长', schoolId: agent1Schools[0], studentIds: [first!.id] })).json().data;
    expect((await post(agent1, '/api/Parent/Update', { id, version: 1, studentIds: [] })).statusCode).toBe(200);
    expect(await linksOf(id)).toEqual([]);
  });
});

describe('references within the row school', () => {
  it('refuses a class of another school with the answer a missing class gets', async () => {
    const [foreignClass] = await t.db.select().from(schoolClasses).where(eq(schoolClasses.schoolId, agent1Schools[0]!)).limit(1);
    const elsewhere = await post(agent1, '/api/Student/Add', { schoolId: agent1Schools[1], classId: foreignClass!.id, name: '新生' });
    const missing = await post(agent1, '/api/Student/Add', { schoolId: agent1Schools[1], classId: 999_999, name: '新生' });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toEqual(missing.json());
  });

  it("re-checks a row's kept references when it moves to another school", async () => {
    const [child] = await studentsOf(agent1Schools[0]!, 1);
    const { id } = (await post(agent1, '/api/Parent/Add', { phoneNum: phone(), name: '家长', schoolId: agent1Schools[0], studentIds: [child!.id] })).json().data;
    const moved = await post(agent1, '/api/Parent/Update', { id, version: 1, schoolId: agent1Schools[1] });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().data.errors[0].path).toBe('studentIds');
  });

  it('accepts a class of the same school', async () => {
    const [ownClass] = await t.db.select().from(schoolClasses).where(eq(schoolClasses.schoolId, agent1Schools[1]!)).limit(1);
    const added = await post(agent1, '/api/Teacher/Add', { schoolId: agent1Schools[1], classId: ownClass!.id, name: '老师', phoneNum: '13700002222' });
    expect(added.statusCode, added.body).toBe(200);
  });
});

describe('fields that follow another reference', () => {
  it("sets a pick-up person's school from its student, and again when the student changes", async () => {
    const [first] = await studentsOf(agent1Schools[0]!, 1);
    const [second] = await studentsOf(agent1Schools[1]!, 1);
    const { id } = (await post(agent1, '/api/PickUpPerson/Add', { studentId: first!.id, name: '接送', relation: 1, phoneNum: '13600003333' })).json().data;
    expect((await get(agent1, `/api/PickUpPerson/Get?id=${id}`)).schoolId).toBe(agent1Schools[0]);
    expect((await post(agent1, '/api/PickUpPerson/Update', { id, version: 1, studentId: second!.id })).statusCode).toBe(200);
    expect((await get(agent1, `/api/PickUpPerson/Get?id=${id}`)).schoolId).toBe(agent1Schools[1]);
  });

  it('never takes the school from the client', async () => {
    const [own] = await studentsOf(agent1Schools[0]!, 1);
    const name = `接送${unique()}`;
    const sent = await post(admin, '/api/PickUpPerson/Add', { studentId: own!.id, schoolId: agent2Schools[0], name, relation: 1, phoneNum: '13600004444' });
    expect(sent.statusCode).toBe(400);
    expect((await post(admin, '/api/PickUpPerson/Search', { name })).json().data.items).toEqual([]);
  });

  it("answers a student out of the caller's scope as not found", async () => {
    const [foreign] = await studentsOf(agent2Schools[0]!, 1);
    const response = await post(agent1, '/api/PickUpPerson/Add', { studentId: foreign!.id, name: '接送', relation: 1, phoneNum: '13600005555' });
    expect(response.statusCode).toBe(400);
    expect(response.json().data.errors).toMatchObject([{ path: 'studentId', key: 'validation.referenceNotFound', message: 'Student not found' }]);
  });
});

describe('a child family under its parent', () => {
  it('is a tab of the parent, not a page of its own', () => {
    expect(resourceOfFrame('schoolManage')?.name).toBe('School');
  });

  it("keeps another agent's classes from an agent, like their schools", async () => {
    const own = (await post(agent1, '/api/SchoolClass/Search', { pageSize: 200 })).json().data.items as Row[];
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((row) => agent1Schools.includes(row.schoolId as number))).toBe(true);
    const [foreign] = await t.db.select().from(schoolClasses).where(eq(schoolClasses.schoolId, agent2Schools[0]!)).limit(1);
    expect((await t.injectAs(agent1, { method: 'GET', url: `/api/SchoolClass/Get?id=${foreign!.id}` })).statusCode).toBe(404);
    const added = await post(agent1, '/api/SchoolClass/Add', { schoolId: agent2Schools[0], grade: 2, className: '越界班' });
    expect(added.statusCode).toBe(400);
  });
});

describe('tree families', () => {
  const add = async (name: string, parentId?: number) => {
    const response = await post(admin, '/api/EducationDirectory/Add', { name, ...(parentId ? { parentId } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.id as number;
  };
  const ordered = async (parentId: number) =>
    (await t.db.select().from(educationDirectories).where(eq(educationDirectories.parentId, parentId)).orderBy(educationDirectories.sortOrder)).map((row) => [row.id, row.sortOrder]);
  const move = (id: number, parentId: number | null, orderIndex: number) => post(admin, '/api/EducationDirectory/Move', { id, parentId, orderIndex });

  it('puts a new node last among its siblings and moves a node with renumbered siblings', async () => {
    const root = await add(`根${unique()}`);
    const [a, b, c] = [await add('A', root), await add('B', root), await add('C', root)];
    expect(await ordered(root)).toEqual([[a, 0], [b, 1], [c, 2]]);
    expect((await move(c, root, 0)).statusCode).toBe(200);
    expect(await ordered(root)).toEqual([[c, 0], [a, 1], [b, 2]]);
    // Moved under a sibling: the old siblings close the gap.
    expect((await move(c, a, 5)).statusCode).toBe(200);
    expect(await ordered(root)).toEqual([[a, 0], [b, 1]]);
    expect(await ordered(a)).toEqual([[c, 0]]);
  });

  it('refuses to move a node under itself or one of its descendants, changing nothing', async () => {
    const root = await add(`根${unique()}`);
    const child = await add('子', root);
    const grandchild = await add('孙', child);
    for (const target of [root, grandchild]) {
      const refused = await move(root, target, 0);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().data.errors[0].path).toBe('parentId');
    }
    const viaUpdate = await post(admin, '/api/EducationDirectory/Update', { id: root, version: 1, parentId: grandchild });
    expect(viaUpdate.statusCode).toBe(400);
    const [stored] = await t.db.select().from(educationDirectories).where(eq(educationDirectories.id, root));
    expect(stored!.parentId).toBeNull();
  });

  it('refuses to delete a node with children, naming it; deletes a node with its children selected too', async () => {
    const name = `有子目录${unique()}`;
    const root = await add(name);
    const child = await add('子', root);
    const refused = await post(admin, '/api/EducationDirectory/BatchDelete', [root]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.errors[0].message).toContain(name);
    expect((await post(admin, '/api/EducationDirectory/BatchDelete', [root, child])).json().data).toEqual({ deleted: 2 });
  });

  it('deletes the whole subtree when the family declares cascade', async () => {
    const root = await add(`级联${unique()}`);
    const child = await add('子', root);
    const grandchild = await add('孙', child);
    // The declaration is the switch: flip it for this family only while the test runs.
    const tree = EducationDirectory.tree as { cascade?: boolean };
    tree.cascade = true;
    try {
      expect((await post(admin, '/api/EducationDirectory/BatchDelete', [root])).statusCode).toBe(200);
    } finally {
      tree.cascade = undefined;
    }
    expect(await t.db.select().from(educationDirectories).where(inArray(educationDirectories.id, [root, child, grandchild]))).toEqual([]);
  });

  it('answers the whole tree nested and ordered among siblings', async () => {
    const name = `整树${unique()}`;
    const root = await add(name);
    const [a, b] = [await add('甲', root), await add('乙', root)];
    await move(b, root, 0);
    const tree = (await get(admin, '/api/EducationDirectory/Tree')) as (Row & { children?: Row[] })[];
    const node = tree.find((candidate) => candidate.id === root)!;
    expect(node.children!.map((child) => child.id)).toEqual([b, a]);
    expect(tree.some((candidate) => candidate.name === '安全教育' && (candidate.children ?? []).length === 3)).toBe(true);
  });

  it('answers 404 for an unknown node and a field error for an unknown parent', async () => {
    expect((await move(999_999, null, 0)).statusCode).toBe(404);
    const root = await add(`根${unique()}`);
    const unknownParent = await move(root, 999_999, 0);
    expect(unknownParent.statusCode).toBe(400);
    expect(unknownParent.json().data.errors[0].path).toBe('parentId');
    const [stored] = await t.db.select().from(educationDirectories).where(and(eq(educationDirectories.id, root)));
    expect(stored!.parentId).toBeNull();
  });
});
