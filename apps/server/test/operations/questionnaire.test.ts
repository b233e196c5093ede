import { APP_PATHS, formatBusinessDate, formatBusinessDateTime } from '@campus/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionnaireAnswerItems, questionnaireAnswers } from '../../src/db/schema/index.js';
import { answerItemsOf } from '../../src/resources/questionnaire-answers.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, readWorkbook, schoolIdsOf, unique } from '../resources/fixtures.js';
import { asParent, demoParents, setParentPassword, signInParent } from '../app-channel/support.js';

let t: TestApp;
let admin: string;
let agent: string;
let agentSchools: number[];
let otherSchools: number[];

const day = (days: number) => formatBusinessDate(new Date(t.clock.now().getTime() + days * 86_400_000));

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  await grantEverything(t, 'agent1');
  agent = await t.loginAs('agent1');
  agentSchools = await schoolIdsOf(t, 'agent1');
  otherSchools = await schoolIdsOf(t, 'agent2');
});
afterAll(() => t.close());

const QUESTIONS = [
  { title: '孩子喜欢午餐吗？', type: 1, isRequired: true, options: '喜欢\n一般\n不喜欢' },
  { title: '希望增加哪些活动？', type: 2, isRequired: true, options: '户外\n阅读\n手工\n音乐' },
  { title: '其他建议', type: 3, isRequired: false },
];

async function addQuestionnaire(token: string, body: Record<string, unknown>) {
  const response = await t.injectAs(token, {
    method: 'POST',
    url: '/api/Questionnaire/Add?view=questionnaire',
    payload: { title: `家长问卷${unique()}`, startDate: day(-1), endDate: day(10), audience: 1, questions: QUESTIONS, ...body },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
}

async function linkToken(id: number): Promise<string> {
  const response = await t.injectAs(admin, { method: 'GET', url: `/api/Questionnaire/GetLink?id=${id}` });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().data.path).toContain('/survey?token=');
  return response.json().data.token as string;
}

const answer = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/Questionnaire/Public/Answer', payload });
const pathsOf = (response: { json(): { data: { errors: { path: string }[] } } }) => response.json().data.errors.map((e) => e.path);

describe('Questionnaire rules', () => {
  it('refuses a choice question without two options, a text question with options and duplicate options', async () => {
    const response = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Questionnaire/Add?view=questionnaire',
      payload: {
        title: '坏问卷',
        startDate: day(0),
        endDate: day(1),
        audience: 1,
        questions: [
          { title: 'A', type: 1, options: '唯一' },
          { title: 'B', type: 3, options: '不该有' },
          { title: 'C', type: 2, options: '甲\n甲' },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(pathsOf(response)).toEqual(['questions.0.options', 'questions.1.options', 'questions.2.options']);
  });

  it('lets an agent publish only to chosen schools of its own scope', async () => {
    const all = await t.injectAs(agent, { method: 'POST', url: '/api/Questionnaire/Add?view=questionnaire', payload: { title: '代理问卷', startDate: day(0), endDate: day(1), audience: 1, questions: QUESTIONS } });
    expect(all.statusCode).toBe(400);
    expect(pathsOf(all)).toEqual(['audience']);
    const foreign = await t.injectAs(agent, {
      method: 'POST',
      url: '/api/Questionnaire/Add?view=questionnaire',
      payload: { title: '代理问卷', startDate: day(0), endDate: day(1), audience: 3, schoolIds: [otherSchools[0]], questions: QUESTIONS },
    });
    expect(foreign.statusCode).toBe(400);
    await addQuestionnaire(agent, { audience: 3, schoolIds: [agentSchools[0]] });
  });
});

describe('POST /api/Questionnaire/Public/Answer', () => {
  it('checks each answer against its question and stores one answer per respondent', async () => {
    const id = await addQuestionnaire(admin, {});
    const token = await linkToken(id);
    const form = await t.app.inject({ method: 'GET', url: `/api/Questionnaire/Public/Get?token=${encodeURIComponent(token)}` });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().data.questions.map((q: { options: string[] }) => q.options.length)).toEqual([3, 4, 0]);

    const twoSingle = await answer({ token, respondentKey: 'browser-0001', answers: [{ questionNo: 1, optionNos: [1, 2] }, { questionNo: 2, optionNos: [1] }] });
    expect(twoSingle.statusCode).toBe(400);
    expect(pathsOf(twoSingle)).toEqual(['questions.1']);
    const missing = await answer({ token, respondentKey: 'browser-0001', answers: [{ questionNo: 1, optionNos: [5] }] });
    expect(pathsOf(missing)).toEqual(['questions.1', 'questions.2']);
    const unknownQuestion = await answer({ token, respondentKey: 'browser-0001', answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [2] }, { questionNo: 9, text: 'x' }] });
    expect(pathsOf(unknownQuestion)).toEqual(['questions.9']);

    const first = await answer({ token, respondentKey: 'browser-0001', answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [2, 3] }, { questionNo: 3, text: '多些户外' }] });
    expect(first.statusCode, first.body).toBe(200);
    const again = await answer({ token, respondentKey: 'browser-0001', answers: [{ questionNo: 1, optionNos: [2] }, { questionNo: 2, optionNos: [1] }] });
    expect(again.statusCode).toBe(409);
    const stored = await t.db.select().from(questionnaireAnswers).where(eq(questionnaireAnswers.questionnaireId, id));
    expect(stored).toHaveLength(1);
    const row = (await t.injectAs(admin, { method: 'GET', url: `/api/Questionnaire/Get?id=${id}&view=questionnaire` })).json().data;
    expect(row.answerCount).toBe(1);
  });

  it('refuses a forged token, and answers outside the window or of a disabled questionnaire', async () => {
    const future = await addQuestionnaire(admin, { startDate: day(2), endDate: day(5) });
    const token = await linkToken(future);
    const body = { respondentKey: 'browser-0002', answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [1] }] };
    expect((await answer({ token, ...body })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'GET', url: `/api/Questionnaire/Public/Get?token=${encodeURIComponent(token)}` })).statusCode).toBe(409);
    const forged = `${future}.${'A'.repeat(32)}`;
    expect((await answer({ token: forged, ...body })).statusCode).toBe(404);
    expect((await answer({ token: 'not-a-token', ...body })).statusCode).toBe(404);

    const open = await addQuestionnaire(admin, {});
    const disabled = await t.injectAs(admin, { method: 'POST', url: '/api/Questionnaire/UpdateEnabled?view=questionnaire', payload: { ids: [open], value: false } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect((await answer({ token: await linkToken(open), ...body })).statusCode).toBe(409);
  });

  it('asks for a school of the audience when the audience is not every school', async () => {
    const id = await addQuestionnaire(admin, { audience: 3, schoolIds: [agentSchools[0]] });
    const token = await linkToken(id);
    const body = { token, answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [1] }] };
    expect(pathsOf(await answer({ ...body, respondentKey: 'browser-0003' }))).toEqual(['schoolId']);
    expect(pathsOf(await answer({ ...body, respondentKey: 'browser-0003', schoolId: otherSchools[0] }))).toEqual(['schoolId']);
    expect((await answer({ ...body, respondentKey: 'browser-0003', schoolId: agentSchools[0] })).statusCode).toBe(200);
  });

  it('keeps the questions once answers exist, but lets other fields change', async () => {
    const id = await addQuestionnaire(admin, {});
    await answer({ token: await linkToken(id), respondentKey: 'browser-0004', answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [1] }] });
    const get = async () => (await t.injectAs(admin, { method: 'GET', url: `/api/Questionnaire/Get?id=${id}&view=questionnaire` })).json().data;
    const row = await get();
    const changed = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Questionnaire/Update?view=questionnaire',
      payload: { id, version: row.version, questions: [{ ...QUESTIONS[0], options: '喜欢\n不喜欢' }, QUESTIONS[1], QUESTIONS[2]] },
    });
    expect(changed.statusCode).toBe(400);
    expect(pathsOf(changed)).toEqual(['questions']);
    const same = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/Questionnaire/Update?view=questionnaire',
      payload: { id, version: row.version, title: '改了标题', questions: row.questions.map((q: Record<string, unknown>) => ({ title: q.title, type: q.type, isRequired: q.isRequired, options: q.options ?? undefined })) },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect((await get()).title).toBe('改了标题');
  });
});

describe('GET /api/Questionnaire/GetResults', () => {
  it('counts each option as the stored answers hold it, over the schools in the reader’s scope', async () => {
    const [mine1, mine2] = agentSchools;
    const [theirs] = otherSchools;
    const id = await addQuestionnaire(admin, { audience: 3, schoolIds: [mine1, mine2, theirs] });
    const token = await linkToken(id);
    const picks: [number, number, number[], string | undefined][] = [
      [mine1!, 1, [1, 2], '更多户外'],
      [mine1!, 1, [2], undefined],
      [mine2!, 2, [2, 3, 4], '增加音乐课'],
      [theirs!, 3, [1], '午餐清淡些'],
      [theirs!, 1, [4], undefined],
    ];
    for (const [index, [schoolId, single, multiple, text]] of picks.entries()) {
      const response = await answer({
        token,
        respondentKey: `respondent-${id}-${index}`,
        schoolId,
        answers: [{ questionNo: 1, optionNos: [single] }, { questionNo: 2, optionNos: multiple }, ...(text ? [{ questionNo: 3, text }] : [])],
      });
      expect(response.statusCode, response.body).toBe(200);
    }

    // The expected counts are read from the stored rows, not from the picks above.
    const countsFromStore = async (schoolIds: number[] | undefined) => {
      const answers = await t.db.select().from(questionnaireAnswers).where(eq(questionnaireAnswers.questionnaireId, id));
      const kept = answers.filter((a) => schoolIds === undefined || schoolIds.includes(a.schoolId!)).map((a) => a.id);
      const items = kept.length ? await t.db.select().from(questionnaireAnswerItems).where(inArray(questionnaireAnswerItems.answerId, kept)) : [];
      const count = (questionNo: number, optionNo: number) => items.filter((item) => item.questionNo === questionNo && item.optionNo === optionNo).length;
      const answered = [1, 2, 3].map((questionNo) => new Set(items.filter((item) => item.questionNo === questionNo).map((item) => item.answerId)).size);
      const texts = items.filter((item) => item.questionNo === 3).sort((a, b) => b.id - a.id).map((item) => item.text);
      return { answers: kept.length, q1: [1, 2, 3].map((o) => count(1, o)), q2: [1, 2, 3, 4].map((o) => count(2, o)), answered, texts };
    };
    const resultsAs = async (token: string) => {
      const response = await t.injectAs(token, { method: 'GET', url: `/api/Questionnaire/GetResults?id=${id}` });
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      const countsOf = (questionNo: number) => data.questions[questionNo - 1].options.map((o: { count: number }) => o.count);
      const answered = data.questions.map((question: { answered: number }) => question.answered);
      return { answers: data.answerCount, q1: countsOf(1), q2: countsOf(2), answered, texts: data.questions[2].texts };
    };

    const everything = await countsFromStore(undefined);
    expect(everything.answers).toBe(5);
    expect(await resultsAs(admin)).toEqual(everything);
    const agentView = await resultsAs(agent);
    expect(agentView).toEqual(await countsFromStore(agentSchools));
    expect(agentView.answers).toBe(3);
    expect(agentView.q1).toEqual([2, 1, 0]);

    const workbook = await readWorkbook(await t.injectAs(agent, { method: 'GET', url: `/api/Questionnaire/ExportAnswers?id=${id}` }));
    expect(workbook.rowCount).toBe(1 + 3);
    expect(String(workbook.getRow(1).getCell(5).value)).toContain('孩子喜欢午餐吗');
    const allRows = await readWorkbook(await t.injectAs(admin, { method: 'GET', url: `/api/Questionnaire/ExportAnswers?id=${id}` }));
    expect(allRows.rowCount).toBe(1 + 5);
    // The answer number stays text; the time is a date cell showing the time in China, as the page does.
    const [first] = await t.db.select({ id: questionnaireAnswers.id, answeredAt: questionnaireAnswers.answeredAt }).from(questionnaireAnswers).where(eq(questionnaireAnswers.questionnaireId, id)).orderBy(asc(questionnaireAnswers.id)).limit(1);
    expect(allRows.getRow(2).getCell(1).value).toBe(String(first!.id));
    const answeredAt = allRows.getRow(2).getCell(2);
    expect(answeredAt.value).toBeInstanceOf(Date);
    expect(answeredAt.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect((answeredAt.value as Date).toISOString().slice(0, 19).replace('T', ' ')).toBe(formatBusinessDateTime(first!.answeredAt, { seconds: true }));
  });

  it('answers 404 for a questionnaire that does not exist', async () => {
    expect((await t.injectAs(admin, { method: 'GET', url: '/api/Questionnaire/GetResults?id=999999' })).statusCode).toBe(404);
  });
});

describe('The parent app', () => {
  it('lists the questionnaires open for its children\'s schools and answers once as the signed-in parent', async () => {
    const [mine] = agentSchools;
    const parent = (await demoParents(t)).find((candidate) => candidate.schoolId === mine)!;
    await setParentPassword(t, parent.id);
    const token = await signInParent(t, parent.phoneNum);
    const open = await addQuestionnaire(admin, { audience: 3, schoolIds: [mine] });
    const elsewhere = await addQuestionnaire(admin, { audience: 3, schoolIds: [otherSchools[0]] });
    const list = await asParent(t, token, { method: 'GET', url: APP_PATHS.questionnaires });
    expect(list.statusCode, list.body).toBe(200);
    const ids = list.json().data.map((q: { id: number }) => q.id);
    expect(ids).toContain(open);
    expect(ids).not.toContain(elsewhere);
    expect((await asParent(t, token, { method: 'GET', url: `${APP_PATHS.questionnaire}?id=${elsewhere}` })).statusCode).toBe(404);
    const form = await asParent(t, token, { method: 'GET', url: `${APP_PATHS.questionnaire}?id=${open}` });
    expect(form.json().data.questions).toHaveLength(3);

    const body = { questionnaireId: open, answers: [{ questionNo: 1, optionNos: [3] }, { questionNo: 2, optionNos: [1] }] };
    const response = await asParent(t, token, { method: 'POST', url: APP_PATHS.answerQuestionnaire, payload: body });
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = await t.db.select().from(questionnaireAnswers).where(eq(questionnaireAnswers.id, response.json().data.answerId));
    expect(stored).toMatchObject({ channel: 2, schoolId: mine, respondentKey: `parent:${parent.id}` });
    // Another key, the same parent: one answer per parent and questionnaire.
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.answerQuestionnaire, payload: body })).statusCode).toBe(409);
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.answerQuestionnaire, payload: { ...body, questionnaireId: elsewhere } })).statusCode).toBe(404);
    const listed = (await asParent(t, token, { method: 'GET', url: APP_PATHS.questionnaires })).json().data.find((q: { id: number }) => q.id === open);
    expect(listed.answered).toBe(true);
  });

  it('keeps the app\'s respondent keys from the public link', async () => {
    const id = await addQuestionnaire(admin, {});
    const response = await answer({ token: await linkToken(id), respondentKey: 'parent:1001', answers: [{ questionNo: 1, optionNos: [1] }, { questionNo: 2, optionNos: [1] }] });
    expect(response.statusCode).toBe(400);
    expect(pathsOf(response)).toEqual(['respondentKey']);
  });

  it('no longer serves the app routes that trusted a respondent key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/Questionnaire/App/Open?schoolId=1' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/Questionnaire/App/Answer', payload: {} })).statusCode).toBe(404);
  });
});

describe('answerItemsOf', () => {
  const questions = [
    { questionNo: 1, title: 'A', type: 1, isRequired: true, options: ['x', 'y'] },
    { questionNo: 2, title: 'B', type: 3, isRequired: true, options: [] },
  ];
  it('stores one row per chosen option and one for a text', () => {
    expect(answerItemsOf(questions, [{ questionNo: 1, optionNos: [2] }, { questionNo: 2, text: ' 好 ' }])).toEqual([
      { questionNo: 1, optionNo: 2, text: null },
      { questionNo: 2, optionNo: null, text: '好' },
    ]);
  });
  it('refuses a text on a choice question, options on a text question and a question answered twice', () => {
    expect(() => answerItemsOf(questions, [{ questionNo: 1, text: 'x' }, { questionNo: 2, optionNos: [1] }])).toThrow();
    expect(() => answerItemsOf(questions, [{ questionNo: 1, optionNos: [1] }, { questionNo: 1, optionNos: [2] }, { questionNo: 2, text: 't' }])).toThrow();
  });
});
