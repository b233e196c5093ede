import { FRAME_BY_INDEX, PERSON_SEARCH_PATH, type PersonSearchAnswer } from '@campus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parents, pickUpPersons, students, teachers } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, grantReadOnly, schoolIdsOf, unique } from '../resources/fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent1School: number;
let agent2School: number;
/** A syllable no seeded name holds, so the box finds exactly the people this file adds. */
const marker = `Qzx${unique().replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
/** Digits no name holds (the marker has none). */
const phoneTail = '864209';

/** One person of each family in a school: names carrying the marker, phones ending in `phoneTail`. */
async function addPeople(schoolId: number, tag: string) {
  const [student] = await t.db.insert(students).values({ schoolId, name: `${marker}学生${tag}`, studentNo: `SN${marker}${tag}`, cardNo: `C${marker}${tag}` }).returning({ id: students.id });
  await t.db.insert(parents).values({ schoolId, name: `${marker}家长${tag}`, phoneNum: `15${tag}0${phoneTail}`.slice(0, 11), relation: 1 });
  await t.db.insert(teachers).values({ schoolId, name: `${marker}老师${tag}`, phoneNum: `13${tag}0${phoneTail}`.slice(0, 11), cardNo: `T${marker}${tag}` });
  await t.db.insert(pickUpPersons).values({ schoolId, studentId: student!.id, name: `${marker}接送${tag}`, relation: 2, phoneNum: `18${tag}0${phoneTail}`.slice(0, 11) });
}

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  [agent1School, agent2School] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
  await addPeople(agent1School, '1');
  await addPeople(agent2School, '2');
});
afterAll(() => t.close());

async function search(token: string, q: string, limit = 10): Promise<PersonSearchAnswer> {
  const response = await t.injectAs(token, { method: 'GET', url: `${PERSON_SEARCH_PATH}?q=${encodeURIComponent(q)}&limit=${limit}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as PersonSearchAnswer;
}

const namesOf = (answer: PersonSearchAnswer) => Object.fromEntries(answer.groups.map((group) => [group.family, group.items.map((item) => item.name).sort()]));

describe('GET /api/Person/Search', () => {
  it('finds students, parents, teachers and pick-up persons by any part of the name, across every school for company staff', async () => {
    const answer = await search(admin, marker.slice(1));
    expect(answer.groups.map((group) => group.family)).toEqual(['Student', 'Parent', 'Teacher', 'PickUpPerson']);
    expect(namesOf(answer)).toEqual({
      Student: [`${marker}学生1`, `${marker}学生2`],
      Parent: [`${marker}家长1`, `${marker}家长2`],
      Teacher: [`${marker}老师1`, `${marker}老师2`],
      PickUpPerson: [`${marker}接送1`, `${marker}接送2`],
    });
    const student = answer.groups[0]!.items.find((item) => item.schoolId === agent1School)!;
    expect(student).toMatchObject({ matched: 'name', schoolName: expect.any(String), studentNo: `SN${marker}1` });
  });

  it("keeps an agent to its own schools' people", async () => {
    const answer = await search(agent1, marker);
    expect(namesOf(answer)).toEqual({ Student: [`${marker}学生1`], Parent: [`${marker}家长1`], Teacher: [`${marker}老师1`], PickUpPerson: [`${marker}接送1`] });
    expect(answer.groups.flatMap((group) => group.items).every((item) => item.schoolId === agent1School)).toBe(true);
  });

  it('finds phones by 4+ consecutive digits, and never by fewer', async () => {
    const answer = await search(agent1, phoneTail.slice(1, 5));
    const byPhone = answer.groups.flatMap((group) => group.items.filter((item) => item.phoneNum?.endsWith(phoneTail)).map((item) => [group.family, item.matched]));
    expect(byPhone.sort()).toEqual([
      ['Parent', 'phoneNum'],
      ['PickUpPerson', 'phoneNum'],
      ['Teacher', 'phoneNum'],
    ]);
    const three = await search(agent1, phoneTail.slice(3));
    expect(three.groups.flatMap((group) => group.items).some((item) => item.phoneNum?.endsWith(phoneTail))).toBe(false);
  });

  it('finds a student by student number and a teacher by card number, exactly', async () => {
    const byStudentNo = await search(admin, `SN${marker}2`);
    expect(namesOf(byStudentNo).Student).toEqual([`${marker}学生2`]);
    expect(byStudentNo.groups[0]!.items[0]!.matched).toBe('studentNo');
    const byCard = await search(admin, `T${marker}1`);
    expect(namesOf(byCard).Teacher).toEqual([`${marker}老师1`]);
    expect(byCard.groups.find((group) => group.family === 'Teacher')!.items[0]!.matched).toBe('cardNo');
    // Outside the agent's scope the number finds nothing.
    expect((await search(agent1, `SN${marker}2`)).groups.every((group) => group.items.length === 0)).toBe(true);
  });

  it('pages by limit and says more rows match', async () => {
    const answer = await search(admin, marker, 1);
    expect(answer.groups.every((group) => group.items.length === 1 && group.hasMore)).toBe(true);
  });

  it('leaves out families whose page the caller does not hold, and refuses callers without the page', async () => {
    await grantReadOnly(t, 'sales2', [FRAME_BY_INDEX.get('personSearch')!.fixedId, FRAME_BY_INDEX.get('teacherInfo')!.fixedId]);
    const sales2 = await t.loginAs('sales2');
    expect((await search(sales2, marker)).groups.map((group) => group.family)).toEqual(['Teacher']);
    await grantReadOnly(t, 'child1', [FRAME_BY_INDEX.get('teacherInfo')!.fixedId]);
    const child = await t.loginAs('child1');
    const refused = await t.injectAs(child, { method: 'GET', url: `${PERSON_SEARCH_PATH}?q=${marker}` });
    expect(refused.statusCode).toBe(403);
  });

  it('answers field errors for an empty box or a limit out of range', async () => {
    const empty = await t.injectAs(admin, { method: 'GET', url: `${PERSON_SEARCH_PATH}?q=%20` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().data.errors[0].path).toBe('q');
    const tooMany = await t.injectAs(admin, { method: 'GET', url: `${PERSON_SEARCH_PATH}?q=abc&limit=500` });
    expect(tooMany.statusCode).toBe(400);
  });
});
