import { FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE, formatBusinessDate } from '@campus/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCooperationPlatforms, appStartupPages, liveFeedbacks, userFeedbacks } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf, unique } from '../resources/fixtures.js';

type Row = Record<string, unknown>;

let t: TestApp;
let admin: string;
let agent1: string;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
});
afterAll(() => t.close());

const post = (token: string, family: string, verb: string, view: string, payload: unknown) =>
  t.injectAs(token, { method: 'POST', url: `/api/${family}/${verb}?view=${view}`, payload: payload as Row });
const get = async (token: string, family: string, view: string, id: number) => {
  const response = await t.injectAs(token, { method: 'GET', url: `/api/${family}/Get?id=${id}&view=${view}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Row & { version: number };
};
const added = async (token: string, family: string, view: string, body: Row) => {
  const response = await post(token, family, 'Add', view, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.id as number;
};
const badges = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/Home/GetBadgeCounts' })).json().data as Record<string, number>;
const errorPaths = (body: string) => (JSON.parse(body) as { data: { errors: { path: string }[] } }).data.errors.map((e) => e.path);

describe('feedback badges and replies', () => {
  it('counts exactly the unanswered feedback and pending live feedback in the caller scope', async () => {
    const agentSchools = await schoolIdsOf(t, 'agent1');
    const count = async (table: typeof userFeedbacks | typeof liveFeedbacks, state: number, schools?: number[]) => {
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(table)
        .where(and(eq(table.state, state), schools ? inArray(table.schoolId, schools) : undefined));
      return Number(row!.n);
    };
    const [adminCounts, agentCounts] = await Promise.all([badges(admin), badges(agent1)]);
    expect(adminCounts.feedbackUnanswered).toBe(await count(userFeedbacks, FEEDBACK_UNANSWERED_STATE));
    expect(adminCounts.liveFeedbackPending).toBe(await count(liveFeedbacks, LIVE_FEEDBACK_PENDING_STATE));
    expect(agentCounts.feedbackUnanswered).toBe(await count(userFeedbacks, FEEDBACK_UNANSWERED_STATE, agentSchools));
    expect(agentCounts.liveFeedbackPending).toBe(await count(liveFeedbacks, LIVE_FEEDBACK_PENDING_STATE, agentSchools));
    expect(agentCounts.feedbackUnanswered).toBeGreaterThan(0);
  });

  it('answers a feedback: the reply is stored for the parent, the badge drops by one, a second reply corrects it', async () => {
    const [schoolId] = await schoolIdsOf(t, 'agent1');
    const id = await added(agent1, 'UserFeedback', 'userBack', { schoolId, parentName: '测试家长', phoneNum: '13800003333', category: 2, content: `推送延迟${unique()}` });
    const before = (await badges(agent1)).feedbackUnanswered!;
    const replied = await post(agent1, 'UserFeedback', 'Reply', 'userBack', { id, reply: '已修复推送' });
    expect(replied.statusCode, replied.body).toBe(200);
    const row = await get(agent1, 'UserFeedback', 'userBack', id);
    expect(row).toMatchObject({ state: 2, reply: '已修复推送' });
    expect(row.repliedAt).toEqual(expect.any(String));
    expect((await badges(agent1)).feedbackUnanswered).toBe(before - 1);

    const corrected = await post(agent1, 'UserFeedback', 'Reply', 'userBack', { id, reply: '已修复推送，请更新到 3.2 版' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await get(agent1, 'UserFeedback', 'userBack', id)).toMatchObject({ reply: '已修复推送，请更新到 3.2 版' });
    const closed = await post(agent1, 'UserFeedback', 'Close', 'userBack', { id });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await post(agent1, 'UserFeedback', 'Reply', 'userBack', { id, reply: '再次回复' })).statusCode).toBe(409);
  });

  it('refuses a reply without text', async () => {
    const [schoolId] = await schoolIdsOf(t, 'agent1');
    const id = await added(agent1, 'UserFeedback', 'userBack', { schoolId, parentName: '测试家长', phoneNum: '13800004444', category: 1, content: '建议' });
    const response = await post(agent1, 'UserFeedback', 'Reply', 'userBack', { id, reply: '' });
    expect(response.statusCode).toBe(400);
  });
});

describe('notices on the home page', () => {
  const homeNotices = async (token: string) => (await t.injectAs(token, { method: 'GET', url: '/api/Home/GetNotices' })).json().data as { id: number; title: string }[];
  // The platform's clock decides what today is (the test's stands still).
  const today = () => formatBusinessDate(t.clock.now());

  it('lists a notice once flagged, for the accounts it is meant for, and drops it once removed', async () => {
    const title = `首页通知${unique()}`;
    const id = await added(admin, 'SysNotice', 'appInform', { title, audience: 2, content: '代理商请注意', startDate: today(), endDate: today() });
    expect((await homeNotices(admin)).map((n) => n.id)).not.toContain(id);
    const shown = await post(admin, 'SysNotice', 'UpdateShowOnHome', 'appInform', { ids: [id], value: true });
    expect(shown.statusCode, shown.body).toBe(200);
    expect((await homeNotices(admin)).find((n) => n.id === id)).toMatchObject({ title });
    expect((await homeNotices(agent1)).map((n) => n.id)).toContain(id);
    // Meant for agents: an external (school) account does not see it.
    expect((await homeNotices(await t.loginAs('external1'))).map((n) => n.id)).not.toContain(id);
    await post(admin, 'SysNotice', 'UpdateShowOnHome', 'appInform', { ids: [id], value: false });
    expect((await homeNotices(admin)).map((n) => n.id)).not.toContain(id);
  });

  it('leaves out flagged notices outside their window', async () => {
    const id = await added(admin, 'SysNotice', 'appInform', { title: `过期${unique()}`, audience: 1, content: 'x', startDate: '2020-01-01', endDate: '2020-01-31', showOnHome: true });
    expect((await homeNotices(admin)).map((n) => n.id)).not.toContain(id);
  });

  it('refuses a window that ends before it starts', async () => {
    const response = await post(admin, 'SysNotice', 'Add', 'appInform', { title: 'x', audience: 1, content: 'x', startDate: '2026-12-02', endDate: '2026-12-01' });
    expect(response.statusCode).toBe(400);
    expect(errorPaths(response.body)).toEqual(['endDate']);
  });
});

describe('rich text and templates', () => {
  it('stores an article body without its script', async () => {
    const id = await added(admin, 'AppContent', 'appContentManage', {
      title: `文章${unique()}`,
      category: 1,
      body: '<p onclick="alert(1)">正文<script>alert(2)</script><a href="javascript:alert(3)">链接</a><img src=x onerror=alert(4)></p>',
    });
    const row = await get(admin, 'AppContent', 'appContentManage', id);
    expect(row.body).toBe('<p>正文<a rel="noopener noreferrer">链接</a><img src="x" /></p>');
  });

  it('refuses placeholders a template does not know, naming them, and accepts the known ones', async () => {
    const refused = await post(admin, 'AppNoticeTemplate', 'Add', 'appInformTemplate', { name: `模板${unique()}`, kind: 1, title: '{studentName}入园', content: '{studentName}于{time}到达，{unknownThing}' });
    expect(refused.statusCode).toBe(400);
    const error = JSON.parse(refused.body).data.errors[0];
    expect(error.path).toBe('content');
    expect(error.message).toContain('unknownThing');
    await added(admin, 'AppNoticeTemplate', 'appInformTemplate', { name: `模板${unique()}`, kind: 1, title: '{studentName}入园', content: '{studentName}于{time}到达{schoolName}' });
  });
});

describe('startup pages', () => {
  const page = (appType: number, extra: Row = {}) => ({ image: 'https://example.com/s.png', name: `启动页${unique()}`, appType, displaySeconds: 3, startDate: '2026-11-01', endDate: '2026-12-31', ...extra });
  const inUse = async (appType: number) =>
    (await t.db.select({ id: appStartupPages.id }).from(appStartupPages).where(and(eq(appStartupPages.appType, appType), eq(appStartupPages.isUsing, true)))).map((r) => Number(r.id));

  it('keeps one page in use per app: turning one on turns the other off', async () => {
    const first = await added(admin, 'AppStartupPage', 'appOpen', page(1, { isUsing: true }));
    expect(await inUse(1)).toEqual([first]);
    const second = await added(admin, 'AppStartupPage', 'appOpen', page(1));
    const toggled = await post(admin, 'AppStartupPage', 'UpdateIsUsing', 'appOpen', { ids: [second], value: true });
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect(await inUse(1)).toEqual([second]);
    // The other app keeps its own page.
    expect((await inUse(2)).length).toBe(1);
  });

  it('refuses turning on two pages of one app at once, changing nothing', async () => {
    const before = await inUse(1);
    const [a, b] = [await added(admin, 'AppStartupPage', 'appOpen', page(1)), await added(admin, 'AppStartupPage', 'appOpen', page(1))];
    const response = await post(admin, 'AppStartupPage', 'UpdateIsUsing', 'appOpen', { ids: [a, b], value: true });
    expect(response.statusCode).toBe(400);
    expect(await inUse(1)).toEqual(before);
  });
});

describe('posters', () => {
  const poster = (extra: Row) => ({ kind: 2, image: 'https://example.com/ad.png', title: `广告${unique()}`, displaySeconds: 10, startDate: '2026-11-01', endDate: '2026-12-31', audience: 1, ...extra });

  it('needs the province of an area and the schools of a chosen-schools audience', async () => {
    expect(errorPaths((await post(admin, 'Poster', 'Add', 'terminalAd', poster({ audience: 2 }))).body)).toEqual(['province']);
    expect(errorPaths((await post(admin, 'Poster', 'Add', 'terminalAd', poster({ audience: 3 }))).body)).toEqual(['schoolIds']);
    expect(errorPaths((await post(admin, 'Poster', 'Add', 'terminalAd', poster({ image: undefined }))).body)).toEqual(['image']);
  });

  // The image's declared `requiredOnRow` (orElse video), checked on the row as it will be, with its own message.
  it('takes a video instead of an image, and refuses a poster left with neither, on Add and Update', async () => {
    const messagesOf = (body: string) => (JSON.parse(body).data.errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`);
    expect(messagesOf((await post(admin, 'Poster', 'Add', 'terminalAd', poster({ image: null }))).body)).toEqual(['image: upload an image or a video']);
    const id = await added(admin, 'Poster', 'terminalAd', poster({ image: null, video: 'https://example.com/ad.mp4' }));
    const cleared = await post(admin, 'Poster', 'Update', 'terminalAd', { id, version: (await get(admin, 'Poster', 'terminalAd', id)).version, video: null });
    expect(cleared.statusCode).toBe(400);
    expect(messagesOf(cleared.body)).toEqual(['image: upload an image or a video']);
    const page = { name: `启动页${unique()}`, appType: 1, displaySeconds: 3, startDate: '2026-11-01', endDate: '2026-12-31' };
    expect(messagesOf((await post(admin, 'AppStartupPage', 'Add', 'appOpen', page)).body)).toEqual(['image: upload the startup image']);
  });

  it('keeps terminal ads and app posters apart by their page', async () => {
    const id = await added(admin, 'Poster', 'terminalAd', poster({ kind: 1 }));
    expect((await get(admin, 'Poster', 'terminalAd', id)).kind).toBe(2);
    expect((await t.injectAs(admin, { method: 'GET', url: `/api/Poster/Get?id=${id}&view=appImage` })).statusCode).toBe(404);
  });
});

describe('partner platforms', () => {
  it('never answers the key, only its last four characters, and keeps it when an update leaves it out', async () => {
    const id = await added(admin, 'AppCooperationPlatform', 'appCoopPlatform', { name: `平台${unique()}`, platformType: 3, merchantNo: 'M1', appId: 'app1', apiKey: 'sk-live-1234567890abcd' });
    const row = await get(admin, 'AppCooperationPlatform', 'appCoopPlatform', id);
    expect(JSON.stringify(row)).not.toContain('1234567890');
    expect(row.apiKeyHint).toBe('****abcd');
    const [stored] = await t.db.select({ apiKey: appCooperationPlatforms.apiKey }).from(appCooperationPlatforms).where(eq(appCooperationPlatforms.id, id));
    expect(stored!.apiKey).not.toContain('1234567890');
    const updated = await post(admin, 'AppCooperationPlatform', 'Update', 'appCoopPlatform', { id, version: row.version, name: '改名' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await get(admin, 'AppCooperationPlatform', 'appCoopPlatform', id)).toMatchObject({ name: '改名', apiKeyHint: '****abcd' });
    // The bank service platform page shows the same row.
    expect((await get(admin, 'AppCooperationPlatform', 'CCB_ServicePlatform', id)).name).toBe('改名');
  });
});
