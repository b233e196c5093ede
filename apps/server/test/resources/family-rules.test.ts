import { DeviceClass, School } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDeliveries, operationLog, schools, students } from '../../src/db/schema/index.js';
import { setSetting } from '../../src/platform/settings.js';
import { probesUserKey } from '../../src/platform/probes.js';
import { addMonths } from '../../src/resources/device.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, readWorkbook, schoolIdsOf, unique, userIdOf, validAddBody } from './fixtures.js';

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
const errorsOf = (response: { json(): { data: { errors: { path: string; message: string }[] } } }) => response.json().data.errors;

describe('POST /api/School/Add', () => {
  it('makes the calling agent the owner of a new school, whatever agent it names', async () => {
    const agent2Id = await userIdOf(t, 'agent2');
    const response = await post(agent1, '/api/School/Add', { schoolName: `代理新校${unique()}`, province: '浙江省', city: '宁波市', schoolType: 1, agentId: agent2Id });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.db.select().from(schools).where(eq(schools.id, response.json().data.id));
    expect(row!.agentId).toBe(await userIdOf(t, 'agent1'));
    expect(row!.examineState).toBe(0);
  });

  it('refuses an agent reference to an account that is not an agent', async () => {
    const response = await post(admin, '/api/School/Add', { schoolName: `新校${unique()}`, province: '浙江省', city: '宁波市', schoolType: 1, agentId: await userIdOf(t, 'sales1') });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toMatchObject([{ path: 'agentId', key: 'account.mustBeType', message: 'must be an account of type Agent' }]);
  });

  it('answers a field error for a duplicate school name', async () => {
    const [existing] = await t.db.select().from(schools).limit(1);
    const response = await post(admin, '/api/School/Add', { schoolName: existing!.schoolName, province: '浙江省', city: '宁波市', schoolType: 1 });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]!.path).toBe('schoolName');
  });

  it('accepts only a real place for each address part, each under the one before it', async () => {
    const body = { schoolName: `地址校${unique()}`, schoolType: 1 };
    const wrongCity = await post(admin, '/api/School/Add', { ...body, province: '江苏省', city: '杭州市' });
    expect(wrongCity.statusCode).toBe(400);
    expect(errorsOf(wrongCity)).toMatchObject([{ path: 'city', message: 'not a city of the chosen province' }]);
    expect(errorsOf(await post(admin, '/api/School/Add', { ...body, province: '测试省', city: '杭州市' }))[0]!.path).toBe('province');
    expect(errorsOf(await post(admin, '/api/School/Add', { ...body, province: '浙江省', city: '杭州市', area: '鼓楼区' }))[0]!.path).toBe('area');
    expect(errorsOf(await post(admin, '/api/School/Add', { ...body, province: '浙江省', city: '请选择' }))).toMatchObject([{ path: 'city', message: 'required' }]);

    const added = await post(admin, '/api/School/Add', { ...body, province: '浙江省', city: '杭州市', area: '区' });
    expect(added.statusCode, added.body).toBe(200);
    const [row] = await t.db.select().from(schools).where(eq(schools.id, added.json().data.id));
    expect(row).toMatchObject({ province: '浙江省', city: '杭州市', area: null });
    // An update of one part is checked against the stored others.
    const update = await post(admin, '/api/School/Update', { id: row!.id, version: row!.version, area: '玄武区' });
    expect(errorsOf(update)[0]!.path).toBe('area');
    expect((await post(admin, '/api/School/Update', { id: row!.id, version: row!.version, area: '临平区' })).statusCode).toBe(200);
  });

  it('matches % and _ in a name filter literally, never as wildcards', async () => {
    expect((await post(admin, '/api/School/Search', { schoolName: '%' })).json().data.total).toBe(0);
    expect((await post(admin, '/api/School/Search', { schoolName: '_' })).json().data.total).toBe(0);
  });

  it('treats the seed search defaults and address placeholders as no filter', async () => {
    const all = (await post(admin, '/api/School/Search', {})).json().data.total;
    const withDefaults = (await post(admin, '/api/School/Search', { ...School.searchDefaults, province: '省', city: '市' })).json().data.total;
    expect(withDefaults).toBe(all);
  });
});

describe('School writers (declared: company staff, sales people, agents and their child accounts)', () => {
  it("refuses a school's own external user every change of a school it reads, whatever its grant", async () => {
    await grantEverything(t, 'external1');
    const external = await t.loginAs('external1');
    const [own] = await t.db.select({ id: schools.id, state: schools.state }).from(schools).where(eq(schools.schoolName, '北京市海淀区阳光幼儿园'));
    const read = await t.injectAs(external, { method: 'GET', url: `/api/School/Get?id=${own!.id}` });
    expect(read.statusCode, read.body).toBe(200);
    const refusals = [
      await post(external, '/api/School/Add', await validAddBody(t, School, own!.id)),
      await post(external, '/api/School/Update', { id: own!.id, version: read.json().data.version, schoolName: '改名' }),
      await post(external, '/api/School/UpdateState', { ids: [own!.id], value: own!.state }),
      await post(external, '/api/School/BatchDelete', [own!.id]),
    ];
    for (const refused of refusals) expect(refused.json(), refused.body).toMatchObject({ code: 403, key: 'school.onlyOwners' });
    expect((await t.db.select({ name: schools.schoolName }).from(schools).where(eq(schools.id, own!.id)))[0]!.name).toBe('北京市海淀区阳光幼儿园');
  });
});

describe('School actions', () => {
  it('examines a school and records who did it', async () => {
    const id = agent1Schools[0]!;
    await t.db.update(schools).set({ examineState: 0 }).where(eq(schools.id, id));
    const response = await post(admin, '/api/School/Examine', { id, isPassed: false, remark: '资料不全' });
    expect(response.json().data).toMatchObject({ id, state: 2 });
    const [row] = await t.db.select().from(schools).where(eq(schools.id, id));
    expect(row!.examineRemark).toBe('资料不全');
    expect(row!.examinedAt).toBeInstanceOf(Date);
    const logs = await t.db.select().from(operationLog).where(eq(operationLog.action, 'examine'));
    expect(logs.at(-1)).toMatchObject({ family: 'School', ids: [id], userId: await userIdOf(t, 'admin'), changes: { examineState: [0, 2] } });
  });

  it('answers 409 to a second review, and reviews a resubmitted school again', async () => {
    const id = agent1Schools[3]!;
    await t.db.update(schools).set({ examineState: 0 }).where(eq(schools.id, id));
    expect((await post(admin, '/api/School/Examine', { id, isPassed: false, remark: '缺少营业执照' })).statusCode).toBe(200);
    const twice = await post(admin, '/api/School/Examine', { id, isPassed: true });
    expect(twice.statusCode).toBe(409);
    // Resubmit needs only the update button: the agent sends the school back for review.
    expect((await post(agent1, '/api/School/Resubmit', { id })).json().data).toMatchObject({ state: 0 });
    expect((await post(admin, '/api/School/Examine', { id, isPassed: true, remark: '资料齐全' })).json().data).toMatchObject({ state: 1 });
    const history = await t.injectAs(agent1, { method: 'GET', url: `/api/School/History?id=${id}` });
    expect(history.json().data.map((e: { verb: string; from: number; to: number }) => [e.verb, e.from, e.to])).toEqual([
      ['Examine', 0, 2],
      ['Resubmit', 2, 0],
      ['Examine', 0, 1],
    ]);
    // An approved school cannot be resubmitted.
    expect((await post(agent1, '/api/School/Resubmit', { id })).statusCode).toBe(409);
  });

  it('stores the school admin password as a slow hash of the MD5, never as sent', async () => {
    const md5 = 'e10adc3949ba59abbe56e057f20f883e';
    const id = agent1Schools[1]!;
    const response = await post(agent1, '/api/School/UpdateAdmin', { id, adminLoginName: 'school_admin', adminPassword: md5 });
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.db.select().from(schools).where(eq(schools.id, id));
    expect(row!.adminLoginName).toBe('school_admin');
    expect(row!.adminPasswordHash).toMatch(/^scrypt\$/);
    expect(row!.adminPasswordHash).not.toContain(md5);
  });

  it("refuses an action on another agent's school with 404", async () => {
    const response = await post(agent1, '/api/School/Examine', { id: agent2Schools[0], isPassed: true });
    expect(response.statusCode).toBe(404);
  });

  it('switches the state of several schools in one call, only inside the scope', async () => {
    const ok = await post(agent1, '/api/School/UpdateState', { ids: agent1Schools.slice(0, 2), value: 0 });
    expect(ok.json().data).toEqual({ updated: 2 });
    const mixed = await post(agent1, '/api/School/UpdateState', { ids: [agent1Schools[2], agent2Schools[0]], value: 0 });
    expect(mixed.statusCode).toBe(404);
    const [untouched] = await t.db.select().from(schools).where(eq(schools.id, agent1Schools[2]!));
    expect(untouched!.state).toBe(1);
  });
});

describe('Device rules', () => {
  it("refuses a serial number that does not start with the model's prefix", async () => {
    const response = await post(admin, '/api/Device/Add', { serialNumber: `XX${unique()}`, deviceClassCode: 'GATE-G3' });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)).toMatchObject([{ path: 'serialNumber', message: "must start with the model's prefix G3" }]);
  });

  it('refuses an unknown product model', async () => {
    const response = await post(admin, '/api/Device/Add', { serialNumber: `G3${unique()}`, deviceClassCode: 'NOPE' });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]!.path).toBe('deviceClassCode');
  });

  it('answers model codes as option values for references by key', async () => {
    const response = await t.injectAs(admin, { method: 'GET', url: '/api/DeviceClass/Options?valueField=code' });
    expect(response.json().data).toContainEqual({ value: 'GATE-G3', label: '人脸识别闸机 G3' });
    const refused = await t.injectAs(admin, { method: 'GET', url: '/api/DeviceClass/Options?valueField=name' });
    expect(refused.statusCode).toBe(400);
  });
});

describe('DeviceWarranty rules', () => {
  it('takes school, start and end from the delivery installation time and warranty months', async () => {
    const [delivery] = await t.db.select().from(deviceDeliveries).where(eq(deviceDeliveries.schoolId, agent1Schools[0]!));
    const response = await post(agent1, '/api/DeviceWarranty/Add', { deliveryId: delivery!.id, serialNumber: `W${unique()}` });
    expect(response.statusCode, response.body).toBe(200);
    const row = (await t.injectAs(agent1, { method: 'GET', url: `/api/DeviceWarranty/Get?id=${response.json().data.id}` })).json().data;
    const start = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(delivery!.installationTime!);
    expect(row).toMatchObject({ schoolId: agent1Schools[0], startDate: start, endDate: addMonths(start, delivery!.warrantyMonths) });
  });

  it('clamps month ends when adding months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2027-12-15', 24)).toBe('2029-12-15');
  });
});

describe('People rules', () => {
  it('puts a pick-up person in the school of its student', async () => {
    const [student] = await t.db.select().from(students).where(eq(students.schoolId, agent1Schools[1]!)).limit(1);
    const response = await post(agent1, '/api/PickUpPerson/Add', { studentId: student!.id, name: '接送人', relation: 1, phoneNum: '13600002222' });
    const row = (await t.injectAs(agent1, { method: 'GET', url: `/api/PickUpPerson/Get?id=${response.json().data.id}` })).json().data;
    expect(row).toMatchObject({ schoolId: agent1Schools[1], studentIdLabel: student!.name });
  });

  it("refuses a student of another agent's school as a reference", async () => {
    const [student] = await t.db.select().from(students).where(eq(students.schoolId, agent2Schools[0]!)).limit(1);
    const response = await post(agent1, '/api/PickUpPerson/Add', { studentId: student!.id, name: '接送人', relation: 1, phoneNum: '13600002222' });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a class of another school', async () => {
    const classes = (await t.injectAs(agent1, { method: 'GET', url: `/api/SchoolClass/Options?schoolId=${agent1Schools[0]}` })).json().data;
    const response = await post(agent1, '/api/Student/Add', { schoolId: agent1Schools[1], classId: classes[0].value, name: '新生' });
    expect(response.statusCode).toBe(400);
    // The same answer as a class that does not exist, so another school's classes cannot be probed.
    expect(errorsOf(response)).toMatchObject([{ path: 'classId', message: 'Class not found' }]);
  });

  it('never answers or exports a parent password', async () => {
    const page = (await post(admin, '/api/Parent/Search', { pageSize: 1 })).json().data;
    expect(page.items[0]).not.toHaveProperty('password');
  });
});

describe('hideAmountColumns', () => {
  it('removes money fields from search and export answers', async () => {
    const companyPage = (await post(admin, '/api/DeviceClass/Search', {})).json().data;
    expect(companyPage.items[0]).toHaveProperty('licensePrice1');
    await setSetting(t.db, probesUserKey(await userIdOf(t, 'agent1')), { hideAmountColumns: true });
    const agentPage = (await post(agent1, '/api/DeviceClass/Search', {})).json().data;
    expect(agentPage.items[0]).not.toHaveProperty('licensePrice1');
    const sheet = await readWorkbook(await t.injectAs(agent1, { method: 'GET', url: '/api/DeviceClass/Export?lang=en' }));
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).not.toContain(DeviceClass.fields.licensePrice1.label.en);
    await setSetting(t.db, probesUserKey(await userIdOf(t, 'agent1')), {});
  });
});

describe('bounded counts', () => {
  it('reports totals past the cap as capped', async () => {
    const { COUNT_CAP } = await import('../../src/resources/engine/query.js');
    const schoolId = agent1Schools[0]!;
    // One statement: 10,005 rows bound as parameters in batches cost most of this test on PGlite.
    await t.db.execute(sql`insert into ${students} (school_id, name) select ${schoolId}, '批量' || i from generate_series(1, ${COUNT_CAP + 5}) i`);
    const page = (await post(admin, '/api/Student/Search', { schoolId, pageSize: 10 })).json().data;
    expect(page).toMatchObject({ total: COUNT_CAP, totalIsCapped: true });
    expect(page.items).toHaveLength(10);
    const lastPage = await post(admin, '/api/Student/Search', { schoolId, pageSize: 10, pageIndex: COUNT_CAP / 10 });
    expect(lastPage.json().data.items).toHaveLength(10);
    const beyond = await post(admin, '/api/Student/Search', { schoolId, pageSize: 10, pageIndex: COUNT_CAP / 10 + 1 });
    expect(beyond.statusCode).toBe(400);
    expect(errorsOf(beyond)[0]!.path).toBe('pageIndex');
  });
});

describe('GET /api/User/Options', () => {
  const options = async (token: string, type: string) =>
    (await t.injectAs(token, { method: 'GET', url: `/api/User/Options?type=${type}` })).json().data.map((o: { label: string }) => o.label);

  it('lets company staff pick any agent or sales person', async () => {
    expect(await options(admin, 'agent')).toEqual(expect.arrayContaining(['华东智慧校园代理', '西南教育科技代理']));
    expect(await options(admin, 'sales')).toEqual(expect.arrayContaining(['王销售', '李销售']));
  });

  it('lets an agent, its child account and a sales leader name only themselves and their own', async () => {
    expect(await options(agent1, 'agent')).toEqual(['华东智慧校园代理']);
    expect(await options(await t.loginAs('child1'), 'agent')).toEqual(['华东智慧校园代理']);
    expect(await options(agent1, 'sales')).toEqual([]);
    expect((await options(await t.loginAs('sales1'), 'sales')).sort()).toEqual(['李销售', '王销售'].sort());
    expect(await options(await t.loginAs('sales2'), 'sales')).toEqual(['李销售']);
  });

  it('refuses an account type it does not offer', async () => {
    const response = await t.injectAs(admin, { method: 'GET', url: '/api/User/Options?type=external' });
    expect(response.statusCode).toBe(400);
  });
});

describe('Parent linked students', () => {
  it('links several children of the school and finds the parent by any of them', async () => {
    const [first, second] = await t.db.select().from(students).where(eq(students.schoolId, agent1Schools[0]!)).limit(2);
    const added = await post(agent1, '/api/Parent/Add', { phoneNum: `1571${unique().padStart(7, '0').slice(-7)}`, name: '两孩家长', schoolId: agent1Schools[0], relation: 2, studentIds: [first!.id, second!.id] });
    expect(added.statusCode, added.body).toBe(200);
    const { id } = added.json().data;
    const row = (await t.injectAs(agent1, { method: 'GET', url: `/api/Parent/Get?id=${id}` })).json().data;
    expect(row).toMatchObject({ studentIds: [first!.id, second!.id], studentIdsLabel: [first!.name, second!.name] });
    const found = (await post(agent1, '/api/Parent/Search', { studentIds: second!.id })).json().data.items.map((r: { id: number }) => r.id);
    expect(found).toContain(id);

    const updated = await post(agent1, '/api/Parent/Update', { id, version: row.version, studentIds: [second!.id] });
    expect(updated.statusCode, updated.body).toBe(200);
    const after = (await t.injectAs(agent1, { method: 'GET', url: `/api/Parent/Get?id=${id}` })).json().data;
    expect(after.studentIds).toEqual([second!.id]);
  });

  it('refuses a child of another school', async () => {
    const [other] = await t.db.select().from(students).where(eq(students.schoolId, agent1Schools[1]!)).limit(1);
    const response = await post(agent1, '/api/Parent/Add', { phoneNum: `1572${unique().padStart(7, '0').slice(-7)}`, name: '家长', schoolId: agent1Schools[0], studentIds: [other!.id] });
    expect(response.statusCode).toBe(400);
    expect(errorsOf(response)[0]!.path).toBe('studentIds');
  });
});

describe('SalesArea places', () => {
  it('stores the provinces in one canonical list, whatever separators were typed', async () => {
    const response = await post(admin, '/api/SalesArea/Add', { name: `区域${unique()}`, provinces: '浙江省，江苏省 浙江省、', cities: '杭州市,南京市' });
    expect(response.statusCode, response.body).toBe(200);
    const stored = (await t.injectAs(admin, { method: 'GET', url: `/api/SalesArea/Get?id=${response.json().data.id}` })).json().data;
    expect(stored).toMatchObject({ provinces: '浙江省,江苏省', cities: '杭州市,南京市' });
  });

  it('refuses a province that does not exist and a city outside the provinces listed', async () => {
    const unknown = await post(admin, '/api/SalesArea/Add', { name: `区域${unique()}`, provinces: '浙江省,火星省' });
    expect(errorsOf(unknown)).toMatchObject([{ path: 'provinces', message: 'not provinces of China: 火星省' }]);
    const outside = await post(admin, '/api/SalesArea/Add', { name: `区域${unique()}`, provinces: '浙江省', cities: '杭州市,成都市' });
    expect(errorsOf(outside)).toMatchObject([{ path: 'cities', message: 'not cities of the provinces listed: 成都市' }]);
  });
});

describe('uploaded files in rows', () => {
  it('answers signed addresses and stores them without the signature', async () => {
    const photo = '/uploads/2026/01/AbCdEfGhIjKlMnOpQrStUv.png';
    const added = await post(admin, '/api/Student/Add', { schoolId: agent1Schools[0], name: `照片${unique()}`, faceImage: photo });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id;
    const row = (await t.injectAs(admin, { method: 'GET', url: `/api/Student/Get?id=${id}` })).json().data;
    expect(row.faceImage).toMatch(/^\/uploads\/2026\/01\/AbCdEfGhIjKlMnOpQrStUv\.png\?e=\d+&s=[A-Za-z0-9_-]{43}$/);
    const listed = (await post(admin, '/api/Student/Search', { schoolId: agent1Schools[0], name: row.name })).json().data.items[0];
    expect(listed.faceImage).toBe(row.faceImage);

    // A form sends back what it read: the signature is dropped, the file stays the same.
    const updated = await post(admin, '/api/Student/Update', { id, version: row.version, faceImage: row.faceImage, name: `${row.name}改` });
    expect(updated.statusCode, updated.body).toBe(200);
    const [stored] = await t.db.select({ faceImage: students.faceImage }).from(students).where(eq(students.id, id));
    expect(stored!.faceImage).toBe(photo);
  });
});
