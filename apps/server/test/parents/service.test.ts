import { addDays, childFamiliesOf, familiesOfFrame, formatBusinessDate, Parent, PUSH_MAX_ATTEMPTS } from '@campus/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appChargeItems, parentNotices, pushDeliveries, serviceReceivers, studentServices, students } from '../../src/db/schema/index.js';
import { postRefundReversal, recordPayment, serviceEnd } from '../../src/finance/payments.js';
import { chargeItemsFor, inboxOf, markNoticesRead, registerPushToken, serviceStatesOf } from '../../src/parents/index.js';
import { outboxPushProvider, type PushProvider } from '../../src/parents/push/provider.js';
import { deliverDuePushes, pushDelayMs } from '../../src/parents/push/worker.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf, unique } from '../resources/fixtures.js';
import { event, registerTerminal, sendEvents, type TestTerminal } from '../terminals/intake-support.js';

let t: TestApp;
let admin: string;
let school: number;
let terminal: TestTerminal;
let chargeItem: number;
let serial = 5000;

const today = () => formatBusinessDate(t.clock.now());

async function configure(values: { parentCount?: number; tryDays?: number; mode?: number; enabled?: boolean }) {
  const { parentCount = 2, tryDays = 0, mode = 1, enabled = true } = values;
  await t.db.execute(sql`
    insert into service_configs (school_id, mode, parent_count, try_days, enabled) values (${school}, ${mode}, ${parentCount}, ${tryDays}, ${enabled})
    on conflict (school_id) do update set mode = excluded.mode, parent_count = excluded.parent_count, try_days = excluded.try_days, enabled = excluded.enabled`);
}

async function newChild(): Promise<number> {
  const [student] = await t.db.insert(students).values({ schoolId: school, name: `孩子${unique()}` }).returning({ id: students.id });
  return Number(student!.id);
}

/** A parent added through the console (so the Parent family's hook binds it), linked to `children`. */
async function addParent(children: number[]): Promise<number> {
  const n = unique();
  const added = await t.injectAs(admin, {
    method: 'POST',
    url: '/api/Parent/Add',
    payload: { phoneNum: `159${n.padStart(8, '0').slice(-8)}`, name: `家长${n}`, schoolId: school, studentIds: children, enabled: true },
  });
  expect(added.statusCode, added.body).toBe(200);
  return Number(added.json().data.id);
}

const receiversOf = (studentId: number) =>
  t.db.select({ parentId: serviceReceivers.parentId, receiving: serviceReceivers.receiving, active: serviceReceivers.active }).from(serviceReceivers).where(eq(serviceReceivers.studentId, studentId));
const receivingOf = async (studentId: number) => (await receiversOf(studentId)).filter((row) => row.receiving).map((row) => Number(row.parentId)).sort((a, b) => a - b);
const noticesOf = (parentId: number) => t.db.select().from(parentNotices).where(eq(parentNotices.parentId, parentId));

async function pay(studentId: number, tradeNo = `T${unique()}`) {
  return t.db.transaction((tx) => recordPayment(tx, { schoolId: school, amount: 36_500, channel: 'wechat', tradeNo, paidAt: t.clock.now(), studentId, chargeItemId: chargeItem }));
}

const serviceToOf = async (studentId: number) => (await t.db.select({ serviceTo: studentServices.serviceTo }).from(studentServices).where(eq(studentServices.studentId, studentId)))[0]?.serviceTo ?? null;

/** A successful recognition of the child at the gate, through the signed intake. */
async function recognise(studentId: number, overrides: Parameters<typeof event>[2] = {}) {
  const batch = [event(t, ++serial, { personKind: 1, personId: studentId, similarity: 98, ...overrides })];
  const answer = await sendEvents(t, terminal, batch);
  expect(answer.statusCode, answer.body).toBe(200);
  return batch;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  school = (await schoolIdsOf(t, 'agent1'))[0]!;
  terminal = await registerTerminal(t, admin, school);
  const [item] = await t.db.insert(appChargeItems).values({ name: `平安校园年卡${unique()}`, unitPrice: 36_500, serviceMonths: 12, enabled: true }).returning({ id: appChargeItems.id });
  chargeItem = Number(item!.id);
});

afterAll(async () => {
  await t.close();
});

describe('receiving places', () => {
  it('gives the first parentCount parents the places and the next waiting parent a place that frees', async () => {
    await configure({ parentCount: 2 });
    const child = await newChild();
    const first = await addParent([child]);
    const second = await addParent([child]);
    const third = await addParent([child]);
    expect(await receivingOf(child)).toEqual([first, second]);
    const disabled = await t.injectAs(admin, { method: 'POST', url: '/api/Parent/UpdateEnabled', payload: { ids: [first], value: false } });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(await receivingOf(child)).toEqual([second, third]);
    const deleted = await t.injectAs(admin, { method: 'POST', url: '/api/Parent/BatchDelete', payload: [second] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await receivingOf(child)).toEqual([third]);
  });

  it('holds parentCount when parents bind one child at once', async () => {
    await configure({ parentCount: 1 });
    const child = await newChild();
    const parents = await Promise.all(Array.from({ length: 4 }, () => addParent([child])));
    expect(await receivingOf(child)).toHaveLength(1);
    expect(parents).toContain((await receivingOf(child))[0]);
    expect(await receiversOf(child)).toHaveLength(4);
  });
});

describe('the service', () => {
  it('extends from the later of today and the current end, and a refund shortens it by its share', async () => {
    await configure({ parentCount: 2 });
    const child = await newChild();
    const parent = await addParent([child]);
    expect(await serviceStatesOf(t.db, parent, [child], today())).toMatchObject([{ studentId: child, state: 'none', receiving: true }]);
    await pay(child, `first${child}`);
    const firstEnd = serviceEnd(today(), 12);
    expect(await serviceToOf(child)).toBe(firstEnd);
    const second = await pay(child);
    const secondEnd = serviceEnd(addDays(firstEnd, 1), 12);
    expect(await serviceToOf(child)).toBe(secondEnd);
    expect(await serviceStatesOf(t.db, parent, [child], today())).toMatchObject([{ state: 'inService', serviceTo: secondEnd, trialDaysLeft: 0 }]);
    // A retried notification of the same payment extends nothing.
    expect((await pay(child, `first${child}`)).isNew).toBe(false);
    expect(await serviceToOf(child)).toBe(secondEnd);
    // Half of the second payment refunded: half of its period's days come off the end.
    const [period] = ((await t.db.execute(sql`select service_from::text as "from", service_to::text as "to" from payment_records where id = ${second.payment.id}`)) as unknown as { rows: { from: string; to: string }[] }).rows;
    const days = Math.round(((Date.parse(period!.to) - Date.parse(period!.from)) / 86_400_000 + 1) / 2);
    await t.db.transaction((tx) => postRefundReversal(tx, second.payment, 1, 36_500 / 2));
    expect(await serviceToOf(child)).toBe(addDays(secondEnd, -days));
  });

  it('gives a new parent the trial days, lists charge items only where parents pay, and counts the school figures', async () => {
    await configure({ parentCount: 0, tryDays: 7 });
    const child = await newChild();
    const parent = await addParent([child]);
    expect(await serviceStatesOf(t.db, parent, [child], today())).toMatchObject([{ state: 'trial', trialDaysLeft: 7, trialTo: addDays(today(), 6), receiving: true }]);
    expect(await serviceStatesOf(t.db, parent, [child], addDays(today(), 7))).toMatchObject([{ state: 'lapsed', trialDaysLeft: 0 }]);
    expect((await chargeItemsFor(t.db, school)).map((item) => item.id)).toContain(chargeItem);
    const search = await t.injectAs(admin, { method: 'POST', url: '/api/ServiceConfig/Search', payload: { pageIndex: 1, pageSize: 100, schoolId: school } });
    expect(search.statusCode, search.body).toBe(200);
    const [config] = (search.json() as { data: { items: Record<string, number>[] } }).data.items;
    expect(config!.parentsInTrial).toBeGreaterThanOrEqual(1);
    await configure({ mode: 3 });
    expect(await chargeItemsFor(t.db, school)).toEqual([]);
    expect(await serviceStatesOf(t.db, parent, [child], today())).toMatchObject([{ state: 'free', receiving: true }]);
  });

  it("shows a parent's services and notice receipts as tabs of the parent's record: child, item, until, trial days", async () => {
    expect(familiesOfFrame('parentUser').map((def) => def.name)).toEqual(['Parent']);
    expect(childFamiliesOf(Parent).map((def) => def.name)).toEqual(['ServiceReceiver', 'ParentNotice']);
    await configure({ parentCount: 0, tryDays: 7 });
    const paid = await newChild();
    const inTrial = await newChild();
    const parent = await addParent([paid, inTrial]);
    const other = await addParent([paid]);
    await pay(paid);
    const search = await t.injectAs(admin, { method: 'POST', url: '/api/ServiceReceiver/Search?view=parentUser', payload: { pageSize: 50, parentId: parent } });
    expect(search.statusCode, search.body).toBe(200);
    const rows = (search.json() as { data: { items: Record<string, unknown>[] } }).data.items;
    expect(rows.map((row) => row.parentId)).toEqual([parent, parent]);
    const byChild = new Map(rows.map((row) => [row.studentId, row]));
    const item = (await t.db.select({ name: appChargeItems.name }).from(appChargeItems).where(eq(appChargeItems.id, chargeItem)))[0]!.name;
    expect(byChild.get(paid)).toMatchObject({ chargeItem: item, serviceTo: await serviceToOf(paid), trialDays: 7 });
    expect(byChild.get(inTrial)).toMatchObject({ chargeItem: null, serviceTo: null, trialDays: 7 });
    // A trial that ended yesterday leaves 0 days.
    await t.db.update(serviceReceivers).set({ trialTo: addDays(today(), -1) }).where(and(eq(serviceReceivers.parentId, parent), eq(serviceReceivers.studentId, inTrial)));
    const later = await t.injectAs(admin, { method: 'POST', url: '/api/ServiceReceiver/Search?view=parentUser', payload: { pageSize: 50, parentId: parent } });
    expect((later.json() as { data: { items: Record<string, unknown>[] } }).data.items.find((row) => row.studentId === inTrial)).toMatchObject({ trialDays: 0 });
    expect(other).not.toBe(parent);
  });

  it('is extended by hand from the console with a reason, in the operation log', async () => {
    const child = await newChild();
    const added = await t.injectAs(admin, { method: 'POST', url: '/api/StudentService/Add?view=safeCampusService', payload: { studentId: child } });
    expect(added.statusCode, added.body).toBe(200);
    const id = Number(added.json().data.id);
    const extended = await t.injectAs(admin, { method: 'POST', url: '/api/StudentService/Extend?view=safeCampusService', payload: { id, days: 30, reason: '家长投诉补偿' } });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(await serviceToOf(child)).toBe(addDays(today(), 29));
    const zero = await t.injectAs(admin, { method: 'POST', url: '/api/StudentService/Extend?view=safeCampusService', payload: { id, days: 0, reason: 'x' } });
    expect(zero.statusCode).toBe(400);
    const logged = ((await t.db.execute(sql`select changes from operation_log where family = 'StudentService' and action = 'extend' and ${id} = any(ids)`)) as unknown as { rows: unknown[] }).rows;
    expect(logged).toHaveLength(1);
  });
});

describe('notices from the gates', () => {
  it('makes one notice per receiving parent of a child in service, none twice, one a minute, none when lapsed', async () => {
    await configure({ parentCount: 2, tryDays: 0, mode: 1 });
    const child = await newChild();
    const [a, b, waiting] = [await addParent([child]), await addParent([child]), await addParent([child])];
    const unpaid = await newChild();
    const unpaidParent = await addParent([unpaid]);
    await pay(child);
    const template = await t.injectAs(admin, {
      method: 'POST',
      url: '/api/AppNoticeTemplate/Add',
      payload: { name: `入园${unique()}`, kind: 1, schoolId: school, title: '{studentName}入园', content: '{parentName}您好，{studentName}于{time}入园', enabled: true },
    });
    expect(template.statusCode, template.body).toBe(200);

    const batch = await recognise(child);
    await recognise(unpaid);
    expect(await noticesOf(a)).toHaveLength(1);
    expect(await noticesOf(b)).toHaveLength(1);
    expect(await noticesOf(waiting)).toHaveLength(0);
    expect(await noticesOf(unpaidParent)).toHaveLength(0);
    const [notice] = await noticesOf(a);
    expect(notice!.content).toMatch(/您好，孩子\d+于\d{4}-\d\d-\d\d \d\d:\d\d入园/);

    // The device retries the same batch: its events are stored once, so are their notices.
    const retried = await sendEvents(t, terminal, batch);
    expect(retried.json().data).toMatchObject({ accepted: 0, duplicates: 1 });
    // Recognised again in the same minute: no second arrival notice.
    await recognise(child, { recognizedAt: batch[0]!.recognizedAt });
    expect(await noticesOf(a)).toHaveLength(1);
    // Leaving: a departure notice (the default text when the school has no template of that kind).
    await recognise(child, { direction: 2 });
    const kinds = (await noticesOf(a)).map((row) => Number(row.kind)).sort();
    expect(kinds).toEqual([1, 2]);

    const inbox = await inboxOf(t.db, a, { page: 1, size: 10 });
    expect(inbox).toMatchObject({ total: 2, unread: 2 });
    expect(await markNoticesRead(t.db, a, [inbox.rows[0]!.id, ...(await noticesOf(b)).map((row) => Number(row.id))], t.clock.now())).toBe(1);
    expect(await inboxOf(t.db, a, { page: 1, size: 10, unreadOnly: true })).toMatchObject({ total: 1, unread: 1 });
  });
});

describe('push', () => {
  it('retries a failing provider with back-off, gives up visibly, and keeps the inbox notice', async () => {
    await configure({ parentCount: 2, mode: 3 });
    const child = await newChild();
    const parent = await addParent([child]);
    await registerPushToken(t.db, parent, { platform: 'android', token: `reg${unique()}` }, t.clock.now());
    await recognise(child);
    const [push] = await t.db.select().from(pushDeliveries).where(eq(pushDeliveries.parentId, parent));
    expect(push).toMatchObject({ state: 'pending', attempts: 0 });

    let now = t.clock.now();
    const failing: PushProvider = { name: 'failing', acceptedState: 'sent', send: async () => ({ ok: false, error: 'HTTP 503 busy' }) };
    for (let attempt = 1; attempt <= PUSH_MAX_ATTEMPTS; attempt++) {
      // Nothing is due before its back-off has passed.
      if (attempt > 1) expect(await deliverDuePushes({ db: t.db, now: () => new Date(now.getTime() + pushDelayMs(attempt - 1) - 1_000), provider: failing })).toEqual([]);
      if (attempt > 1) now = new Date(now.getTime() + pushDelayMs(attempt - 1));
      const outcomes = await deliverDuePushes({ db: t.db, now: () => now, provider: failing });
      expect(outcomes).toEqual([attempt < PUSH_MAX_ATTEMPTS ? 'retrying' : 'givenUp']);
    }
    const [givenUp] = await t.db.select().from(pushDeliveries).where(eq(pushDeliveries.id, push!.id));
    expect(givenUp).toMatchObject({ state: 'givenUp', attempts: PUSH_MAX_ATTEMPTS, lastError: 'HTTP 503 busy', provider: 'failing' });
    expect((await inboxOf(t.db, parent, { page: 1, size: 10 })).total).toBe(1);

    const listed = await t.injectAs(admin, { method: 'POST', url: '/api/PushDelivery/Search', payload: { pageIndex: 1, pageSize: 10, parentId: parent, state: 'givenUp' } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { data: { items: unknown[] } }).data.items).toHaveLength(1);

    // The default provider keeps the push in the outbox.
    await recognise(child, { direction: 2 });
    expect(await deliverDuePushes({ db: t.db, now: () => t.clock.now(), provider: outboxPushProvider })).toEqual(['accepted']);
    const rows = await t.db.select().from(pushDeliveries).where(and(eq(pushDeliveries.parentId, parent), eq(pushDeliveries.state, 'outbox')));
    expect(rows).toHaveLength(1);
  });
});
