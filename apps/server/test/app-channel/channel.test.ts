import { APP_PATHS, REFUND_APPLIED } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { asParent, demoParents, setParentPassword, signInParent, type DemoParent } from './support.js';

let t: TestApp;
let parent: DemoParent;
let stranger: DemoParent;
let token: string;

type Rows<T> = { rows: T[] };

beforeAll(async () => {
  t = await createTestApp();
  const all = await demoParents(t);
  // The first parent of a school has two children; the stranger is of another school.
  parent = all.find((candidate) => candidate.childIds.length > 1)!;
  stranger = all.find((candidate) => candidate.schoolId !== parent.schoolId)!;
  await setParentPassword(t, parent.id);
  token = await signInParent(t, parent.phoneNum);
});
afterAll(() => t.close());

describe('reads are limited to the parent\'s own children (404 otherwise)', () => {
  it('lists its children with school and class', async () => {
    const response = await asParent(t, token, { method: 'GET', url: APP_PATHS.children });
    expect(response.statusCode, response.body).toBe(200);
    const children = response.json().data as { id: number; schoolId: number; schoolName: string; className: string | null }[];
    expect(children.map((child) => child.id).sort((a, b) => a - b)).toEqual(parent.childIds);
    expect(children.every((child) => child.schoolId === parent.schoolId && child.schoolName && child.className)).toBe(true);
  });

  it("answers a child's recognitions of a China-time day, and 404 for another family's child", async () => {
    const found = (await t.db.execute(sql`
      select person_id as "studentId", to_char(recognized_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day from recognition_records
      where person_kind = 1 and success and person_id in (${sql.join(parent.childIds.map((id) => sql`${id}`), sql`, `)}) order by recognized_at desc limit 1`)) as unknown as Rows<{ studentId: number; day: string }>;
    const { studentId, day } = found.rows[0]!;
    const response = await asParent(t, token, { method: 'GET', url: `${APP_PATHS.recognitions}?studentId=${studentId}&date=${day}` });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data.items.length).toBeGreaterThan(0);
    expect(data.arrival ?? data.departure).not.toBeNull();
    expect(data.items.every((item: { recognizedAt: string }) => new Date(item.recognizedAt).toLocaleDateString('sv-SE', { timeZone: 'Asia/Shanghai' }) === day)).toBe(true);
    const foreign = await asParent(t, token, { method: 'GET', url: `${APP_PATHS.recognitions}?studentId=${stranger.childIds[0]}&date=${day}` });
    expect(foreign.statusCode).toBe(404);
  });

  it('lists only its own payments', async () => {
    const response = await asParent(t, token, { method: 'GET', url: `${APP_PATHS.payments}?size=100` });
    expect(response.statusCode, response.body).toBe(200);
    const ids = (response.json().data.rows as { id: number }[]).map((row) => row.id);
    const mine = (await t.db.execute(sql`select id from payment_records where parent_id = ${parent.id}`)) as unknown as Rows<{ id: number }>;
    expect(ids.sort((a, b) => a - b)).toEqual(mine.rows.map((row) => Number(row.id)).sort((a, b) => a - b));
    expect(response.json().data.total).toBe(ids.length);
  });

  it('reads notices for parents and the published help', async () => {
    expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.schoolNotices })).statusCode).toBe(200);
    expect((await asParent(t, token, { method: 'GET', url: APP_PATHS.help })).statusCode).toBe(200);
  });
});

describe('POST /api/App/ApplyRefund', () => {
  async function aPaymentOf(parentId: number): Promise<number> {
    const found = (await t.db.execute(sql`
      select p.id from payment_records p where p.parent_id = ${parentId} and p.refunded_amount < p.amount
        and not exists (select 1 from refunds r where r.payment_id = p.id) order by p.id limit 1`)) as unknown as Rows<{ id: number }>;
    return Number(found.rows[0]!.id);
  }

  it('files an application that refundManage lists, and replays the answer for the same key', async () => {
    const paymentId = await aPaymentOf(parent.id);
    const headers = { 'idempotency-key': `refund-${paymentId}-once` };
    const first = await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId, reason: '孩子转学' } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.state).toBe(REFUND_APPLIED);
    const replay = await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId, reason: '孩子转学' } });
    expect(replay.json()).toEqual(first.json());
    const stored = (await t.db.execute(sql`select count(*)::int as n from refunds where payment_id = ${paymentId}`)) as unknown as Rows<{ n: number }>;
    expect(stored.rows[0]!.n).toBe(1);

    const admin = await t.loginAs('admin');
    const listed = await t.injectAs(admin, { method: 'POST', url: '/api/Refund/Search', payload: { pageSize: 50, paymentId } });
    expect(listed.json().data.items.map((row: { id: number }) => row.id)).toContain(first.json().data.id);
    const log = (await t.db.execute(sql`select user_id as "userId" from operation_log where family = 'Refund' and ${first.json().data.id} = any(ids)`)) as unknown as Rows<{ userId: number | null }>;
    expect(log.rows).toEqual([{ userId: null }]);
  });

  it('refuses the same key with another body (409) and a write without a key (400)', async () => {
    const paymentId = await aPaymentOf(parent.id);
    const headers = { 'idempotency-key': `refund-${paymentId}-conflict` };
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId, reason: '第一次' } })).statusCode).toBe(200);
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId, reason: '第二次' } })).statusCode).toBe(409);
    const keyless = await t.app.inject({ method: 'POST', url: APP_PATHS.applyRefund, headers: { authorization: `Bearer ${token}` }, payload: { paymentId, reason: 'x' } });
    expect(keyless.statusCode).toBe(400);
  });

  it("answers 404 for another family's payment, and releases the key of a refused call", async () => {
    const foreign = await aPaymentOf(stranger.id);
    const headers = { 'idempotency-key': 'refund-foreign-payment' };
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId: foreign, reason: 'x' } })).statusCode).toBe(404);
    const mine = await aPaymentOf(parent.id);
    expect((await asParent(t, token, { method: 'POST', url: APP_PATHS.applyRefund, headers, payload: { paymentId: mine, reason: 'x' } })).statusCode).toBe(200);
  });
});
