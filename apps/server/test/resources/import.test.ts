import { IMPORT_LIMITS, Parent, PickUpPerson, Student, importColumnsOf, type ImportPreview } from '@campus/contract';
import { and, desc, eq, inArray, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLog, parents, pickUpPersons, schoolClasses, schools, students } from '../../src/db/schema/index.js';
import { multipartFiles } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantReadOnly, schoolIdsOf, unique } from './fixtures.js';
import { deflatedZip } from './zip-fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let external: string;
let agent1School: { id: number; name: string };
let agent2School: { id: number; name: string };
const marker = `Imp${unique()}`;

/** A multipart body carrying one file, as the web's import dialog sends it. */
const multipart = (content: Buffer, filename = 'rows.xlsx') =>
  multipartFiles([{ filename, content, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }], 'file');

/** A workbook whose first sheet holds the header and rows given. */
async function workbook(header: string[], rows: (string | number | Date | null)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('data');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function post(token: string, family: string, verb: 'ImportPreview' | 'Import', file: Buffer, query = '', lang = 'zh') {
  return t.injectAs(token, { method: 'POST', url: `/api/${family}/${verb}${query}`, ...withLang(multipart(file), lang) });
}

async function preview(token: string, family: string, file: Buffer, lang = 'zh'): Promise<ImportPreview> {
  const response = await t.injectAs(token, { method: 'POST', url: `/api/${family}/ImportPreview`, ...withLang(multipart(file), lang) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as ImportPreview;
}

function withLang(body: { payload: Buffer; headers: Record<string, string> }, lang: string) {
  return { payload: body.payload, headers: { ...body.headers, 'accept-language': lang } };
}

async function studentsNamed(prefix: string) {
  return t.db.select({ id: students.id, name: students.name, schoolId: students.schoolId, classId: students.classId, gender: students.gender }).from(students).where(like(students.name, `${prefix}%`));
}

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent1, external] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('external1')]);
  const nameOf = async (id: number) => (await t.db.select({ name: schools.schoolName }).from(schools).where(eq(schools.id, id)))[0]!.name;
  const [a1, a2] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
  agent1School = { id: a1, name: await nameOf(a1) };
  agent2School = { id: a2, name: await nameOf(a2) };
  await t.db.insert(schoolClasses).values({ schoolId: a1, grade: 11, className: `${marker}一班` });
});
afterAll(() => t.close());

describe('GET /api/{Family}/ImportTemplate', () => {
  it("answers the declaration's columns in the caller's language, and examples naming rows of the caller's scope", async () => {
    const response = await t.injectAs(agent1, { method: 'GET', url: '/api/Student/ImportTemplate', headers: { 'accept-language': 'en' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(decodeURIComponent(String(response.headers['content-disposition']))).toContain('Student import template');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const [data, examples] = book.worksheets;
    const headers = (data!.getRow(1).values as string[]).slice(1);
    expect(headers).toEqual(importColumnsOf(Student).map((c) => c.field.label.en + (c.field.required ? ' *' : '')));
    expect(headers).toEqual(['School *', 'Class', 'Name *', 'Student no.', 'Card no.', 'Gender', 'Birth date', 'State']);
    expect(data!.rowCount).toBe(1);
    const example = examples!.getRow(2).values as unknown[];
    const schoolNames = (await t.db.select({ name: schools.schoolName }).from(schools).where(inArray(schools.id, await schoolIdsOf(t, 'agent1')))).map((s) => s.name);
    expect(schoolNames).toContain(example[1]);
    expect(example.slice(3)).toEqual(['王雨桐', '20240101', '0012345678', 'Female', '2017-05-12', 'Enrolled']);
  });

  it('answers 403 to a caller without the import button', async () => {
    await grantReadOnly(t, 'external1', [202]);
    const reader = await t.loginAs('external1');
    const response = await t.injectAs(reader, { method: 'GET', url: '/api/Student/ImportTemplate' });
    expect(response.statusCode).toBe(403);
    expect((await post(reader, 'Student', 'Import', await workbook(['学校', '姓名'], [[agent1School.name, 'x']]))).statusCode).toBe(403);
    void external;
  });
});

describe('POST /api/{Family}/ImportPreview', () => {
  it('checks every row without writing, and answers each error on its row and cell', async () => {
    const file = await workbook(
      ['学校 *', '班级', '姓名 *', 'Gender', '出生日期'],
      [
        [agent1School.name, `${marker}一班`, `${marker}甲`, '女', new Date(Date.UTC(2017, 4, 12))],
        [agent1School.name, null, `${marker}乙`, 'Alien', '2017-13-40'],
        [agent1School.name, '没有这个班', null, 'Male', null],
        [agent2School.name, null, `${marker}丙`, null, null],
      ],
    );
    const answer = await preview(agent1, 'Student', file);
    expect(answer).toMatchObject({ total: 4, valid: 1, invalid: 3, truncated: false });
    expect(answer.errors.map(({ row, column, field, message }) => [row, column, field, message])).toEqual([
      [3, 'D', 'gender', '应为以下之一：男、女'],
      [3, 'E', 'birthDate', '日期格式应为 YYYY-MM-DD'],
      [4, 'B', 'classId', '班级不存在'],
      [4, 'C', 'name', '必填'],
      // Another agent's school is not found, exactly like a school that does not exist.
      [5, 'A', 'schoolId', '学校不存在'],
    ]);
    expect(await studentsNamed(marker)).toEqual([]);
  });

  it('refuses repeats inside the file and values already stored on unique fields, in English when asked', async () => {
    const stored = `139${String(Date.now()).slice(-8)}`;
    await t.db.insert(parents).values({ schoolId: agent1School.id, name: `${marker}已有`, phoneNum: stored, relation: 1 });
    const repeated = `137${String(Date.now()).slice(-8)}`;
    const file = await workbook(
      ['Mobile', 'Name', 'School'],
      [
        [repeated, `${marker}P1`, agent1School.name],
        [repeated, `${marker}P2`, agent1School.name],
        [Number(stored), `${marker}P3`, agent1School.name],
      ],
    );
    const answer = await preview(agent1, 'Parent', file, 'en');
    expect(answer.errors.map(({ row, header, message }) => [row, header, message])).toEqual([
      [3, 'Mobile', 'repeats row 2'],
      [4, 'Mobile', 'already exists'],
    ]);
  });

  it('refuses a file whose header is not the template', async () => {
    const response = await post(agent1, 'Student', 'ImportPreview', await workbook(['学校', '姓名', '爱好'], [[agent1School.name, 'x', 'y']]));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('无法识别的列“爱好”，请使用导入模板');
    const missing = await post(agent1, 'Student', 'ImportPreview', await workbook(['学校'], [[agent1School.name]]), '', 'en');
    expect(missing.json().message).toBe('the required column “Name” is missing');
    const notXlsx = await post(agent1, 'Student', 'ImportPreview', Buffer.from('name,school\nx,y\n'));
    expect([notXlsx.statusCode, notXlsx.json().message]).toEqual([400, '请上传 .xlsx 格式的 Excel 文件']);
  });

  it('refuses a decompression bomb before reading it', async () => {
    const bomb = await deflatedZip('xl/worksheets/sheet1.xml', IMPORT_LIMITS.ratioFloorBytes * 2);
    expect(bomb.length).toBeLessThan(IMPORT_LIMITS.ratioFloorBytes / 100);
    const response = await post(agent1, 'Student', 'ImportPreview', bomb);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(`文件压缩比异常（超过 ${IMPORT_LIMITS.maxRatio} 倍），已拒绝`);
  });
});

describe('POST /api/{Family}/Import', () => {
  it('writes nothing when a row is wrong, then writes every row of the fixed file in one logged operation', async () => {
    const rows = (gender: string) => [
      [agent1School.name, `${marker}一班`, `${marker}全1`, '女'],
      [agent1School.name, null, `${marker}全2`, gender],
      [agent1School.name, null, `${marker}全3`, '男'],
    ];
    const header = ['学校', '班级', '姓名', '性别'];
    const refused = await post(agent1, 'Student', 'Import', await workbook(header, rows('外星人')));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 400, message: '有 1 行数据有误，未导入任何数据', data: { preview: { total: 3, invalid: 1, errors: [{ row: 3, column: 'D' }] } } });
    expect(await studentsNamed(`${marker}全`)).toEqual([]);

    const imported = await post(agent1, 'Student', 'Import', await workbook(header, rows('男')));
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toEqual({ imported: 3, skipped: 0 });
    const written = await studentsNamed(`${marker}全`);
    expect(written.map((s) => [s.name, s.schoolId, s.gender]).sort()).toEqual([
      [`${marker}全1`, agent1School.id, 2],
      [`${marker}全2`, agent1School.id, 1],
      [`${marker}全3`, agent1School.id, 1],
    ]);
    const [klass] = await t.db.select({ id: schoolClasses.id }).from(schoolClasses).where(eq(schoolClasses.className, `${marker}一班`));
    expect(written.find((s) => s.name === `${marker}全1`)!.classId).toBe(klass!.id);
    const [entry] = await t.db.select().from(operationLog).where(and(eq(operationLog.family, 'Student'), eq(operationLog.action, 'import'))).orderBy(desc(operationLog.id)).limit(1);
    expect([...entry!.ids].sort()).toEqual(written.map((s) => s.id).sort());
    expect(entry!.changes).toEqual({ file: 'rows.xlsx', imported: 3, skipped: 0 });
  });

  it('imports only the valid rows when asked to skip the others', async () => {
    const file = await workbook(['学校', '姓名'], [[agent1School.name, `${marker}跳1`], [agent2School.name, `${marker}跳2`]]);
    const response = await post(agent1, 'Student', 'Import', file, '?skipInvalid=true');
    expect(response.json().data).toEqual({ imported: 1, skipped: 1 });
    expect((await studentsNamed(`${marker}跳`)).map((s) => s.name)).toEqual([`${marker}跳1`]);
  });

  it("keeps an agent out of another agent's school, and names pick-up persons' students within the school given", async () => {
    const refused = await post(agent1, 'Student', 'Import', await workbook(['学校', '姓名'], [[agent2School.name, `${marker}越界`]]));
    expect(refused.statusCode).toBe(400);
    expect(await studentsNamed(`${marker}越界`)).toEqual([]);

    // Two students of one name in two schools: the school column tells them apart.
    const [other] = await t.db.insert(schools).values({ schoolName: `${marker}分校`, province: '广东省', city: '广州市', agentId: (await t.db.select({ agentId: schools.agentId }).from(schools).where(eq(schools.id, agent1School.id)))[0]!.agentId, schoolType: 1 }).returning({ id: schools.id });
    const [mine] = await t.db.insert(students).values({ schoolId: agent1School.id, name: `${marker}同名` }).returning({ id: students.id });
    await t.db.insert(students).values({ schoolId: other!.id, name: `${marker}同名` });
    const header = importColumnsOf(PickUpPerson).map((c) => c.field.label.zh);
    expect(header).toEqual(['学生', '学校', '姓名', '关系', '手机号', '有效期至']);
    const ambiguous = await preview(agent1, 'PickUpPerson', await workbook(header, [[`${marker}同名`, null, `${marker}接`, '母亲', '13912345678', null]]));
    expect(ambiguous.errors.map((e) => [e.field, e.message])).toEqual([['studentId', `“${marker}同名”对应多条学生，请改用唯一的名称或编码`]]);
    const response = await post(agent1, 'PickUpPerson', 'Import', await workbook(header, [[`${marker}同名`, agent1School.name, `${marker}接`, '母亲', '13912345678', '2027-01-31']]));
    expect(response.json().data).toEqual({ imported: 1, skipped: 0 });
    const [person] = await t.db.select().from(pickUpPersons).where(eq(pickUpPersons.name, `${marker}接`));
    expect(person).toMatchObject({ studentId: mine!.id, schoolId: agent1School.id, relation: 2, validUntil: '2027-01-31' });
  });

  it("writes a parent's linked students, named within the parent's school", async () => {
    await t.db.insert(students).values([{ schoolId: agent1School.id, name: `${marker}孩1` }, { schoolId: agent1School.id, name: `${marker}孩2` }]);
    const header = importColumnsOf(Parent).map((c) => c.field.label.zh);
    const phone = `136${String(Date.now()).slice(-8)}`;
    const response = await post(admin, 'Parent', 'Import', await workbook(header, [[phone, `${marker}家长`, agent1School.name, `${marker}孩1、${marker}孩2`, '父亲', '启用']]));
    expect(response.statusCode, response.body).toBe(200);
    const [parent] = await t.db.select({ id: parents.id, enabled: parents.enabled }).from(parents).where(eq(parents.phoneNum, phone));
    expect(parent!.enabled).toBe(true);
    const got = await t.injectAs(admin, { method: 'GET', url: `/api/Parent/Get?id=${parent!.id}` });
    expect([...got.json().data.studentIdsLabel].sort()).toEqual([`${marker}孩1`, `${marker}孩2`]);
  });
});
