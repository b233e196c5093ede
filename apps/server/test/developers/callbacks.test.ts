import { CALLBACK_HEADERS, CALLBACK_MAX_ATTEMPTS, INTAKE_PATHS, openStringToSign, type DeveloperCallbackBody } from '@campus/contract';
import { desc, eq, inArray } from 'drizzle-orm';
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { developerDeliveries, developerDeliveryAttempts } from '../../src/db/schema/index.js';
import { callbackPolicyOf } from '../../src/developers/callback-address.js';
import { enqueueCallbacks } from '../../src/developers/callback-queue.js';
import { callbackDelayMs, deadCallbackPurgeJob, deliverDueCallbacks, type CallbackWorker } from '../../src/developers/callback-worker.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { schoolIdsOf } from '../resources/fixtures.js';
import { PNG, event, multipartEvents, registerTerminal, sendEvents, signedCall, type TestTerminal } from '../terminals/intake-support.js';

type Row = Record<string, unknown>;

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A developer's receiver on this machine: records every POST and answers `status` (or never, when null). */
function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200 as number | null, delayMs: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (state.status === null) return;
      const status = state.status;
      setTimeout(() => response.writeHead(status).end('ok'), state.delayMs);
    });
  });
  return {
    received,
    state,
    server,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let t: TestApp;
let admin: string;
let school: number;
let otherSchool: number;
let terminal: TestTerminal;
let receiver: ReturnType<typeof startReceiver>;
let base: string;
let developer: { id: number; appId: string; secret: string };
let serial = 1000;

const developerCall = (verb: string, payload: unknown, method: 'GET' | 'POST' = 'POST') =>
  t.injectAs(admin, { method, url: `/api/Developer/${verb}${verb.includes('?') ? '&' : '?'}view=developManage`, payload: payload as Row });
const deliveryCall = (token: string, verb: string, payload: unknown) =>
  t.injectAs(token, { method: 'POST', url: `/api/DeveloperDelivery/${verb}?view=developManage`, payload: payload as Row });

async function addDeveloper(values: Row, issueSecret = true): Promise<{ id: number; appId: string; secret: string }> {
  const added = await developerCall('Add', values);
  expect(added.statusCode, added.body).toBe(200);
  const id = added.json().data.id as number;
  const secret = issueSecret ? ((await developerCall('ResetSecret', { id })).json().data.secret as string) : '';
  const row = (await developerCall(`Get?id=${id}`, undefined, 'GET')).json().data as Row;
  return { id, appId: String(row.appId), secret };
}

const worker = (overrides: Partial<CallbackWorker> = {}): Promise<CallbackWorker> =>
  t.app.mediaUrls().then((signer) => ({ db: t.db, now: () => t.clock.now(), signer, policy: callbackPolicyOf(t.env), log: t.app.log, random: () => 1, ...overrides }));

const deliveriesOf = (developerId: number) => t.db.select().from(developerDeliveries).where(eq(developerDeliveries.developerId, developerId));
const attemptsOf = (deliveryId: string) =>
  t.db.select().from(developerDeliveryAttempts).where(eq(developerDeliveryAttempts.deliveryId, deliveryId)).orderBy(desc(developerDeliveryAttempts.id));

/** Sends `count` new events from the terminal and answers the intake's answer. */
async function arrivals(count: number) {
  const events = Array.from({ length: count }, () => event(t, ++serial));
  const answer = await sendEvents(t, terminal, events);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data as { accepted: number; duplicates: number };
}

/** Removes every queued delivery, so each test starts from an empty queue. */
const emptyQueue = () => t.db.delete(developerDeliveries);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.loginAs('admin');
  [school, otherSchool] = [(await schoolIdsOf(t, 'agent1'))[0]!, (await schoolIdsOf(t, 'agent2'))[0]!];
  terminal = await registerTerminal(t, admin, school);
  receiver = startReceiver();
  base = await receiver.listen();
  developer = await addDeveloper({ name: '家校通', callbackUrl: `${base}/hooks/campus?v=1`, schoolIds: [school] });
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
beforeEach(async () => {
  await emptyQueue();
  receiver.received.length = 0;
  receiver.state.status = 200;
  receiver.state.delayMs = 0;
});

describe('enqueueing in the intake transaction', () => {
  it('queues one delivery per batch for each developer reading the school, with the stored events', async () => {
    const stranger = await addDeveloper({ name: '别校', callbackUrl: `${base}/other`, schoolIds: [otherSchool] });
    const unsigned = await addDeveloper({ name: '未签发', callbackUrl: `${base}/unsigned`, schoolIds: [school] }, false);
    const silent = await addDeveloper({ name: '无回调', schoolIds: [school] });
    expect((await arrivals(3)).accepted).toBe(3);
    const [delivery, ...more] = await deliveriesOf(developer.id);
    expect(more).toHaveLength(0);
    expect(delivery).toMatchObject({ schoolId: school, eventCount: 3, state: 'pending', attempts: 0 });
    expect(delivery!.deliveryId).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect((delivery!.events as { schoolId: number }[]).map((item) => item.schoolId)).toEqual([school, school, school]);
    for (const other of [stranger, unsigned, silent]) expect(await deliveriesOf(other.id)).toHaveLength(0);
  });

  it('queues nothing for a retried batch whose events were all stored before, nor for a disabled developer', async () => {
    const events = [event(t, ++serial), event(t, ++serial)];
    expect((await sendEvents(t, terminal, events)).json().data.accepted).toBe(2);
    expect((await sendEvents(t, terminal, events)).json().data).toEqual({ accepted: 0, duplicates: 2 });
    expect(await deliveriesOf(developer.id)).toHaveLength(1);
    await emptyQueue();
    expect((await developerCall('UpdateEnabled', { ids: [developer.id], value: false })).statusCode).toBe(200);
    await arrivals(1);
    expect(await deliveriesOf(developer.id)).toHaveLength(0);
    expect((await developerCall('UpdateEnabled', { ids: [developer.id], value: true })).statusCode).toBe(200);
  });

  it('rolls back with the batch: a delivery enqueued in a transaction that fails is not kept', async () => {
    const events = [{ id: 1, recognizedAt: t.clock.now().toISOString(), schoolId: school, deviceId: terminal.deviceId, personKind: 5, personId: null, personName: null, direction: 1, similarity: 40, temperature: null, success: false, snapshot: null }];
    await expect(
      t.db.transaction(async (tx) => {
        expect(await enqueueCallbacks(tx, school, events, t.clock.now())).toBe(1);
        throw new Error('the batch failed after its events');
      }),
    ).rejects.toThrow('the batch failed');
    expect(await deliveriesOf(developer.id)).toHaveLength(0);
  });
});

describe('the callback worker', () => {
  it('POSTs the batch signed with the developer secret, with its idempotency key and signed snapshots', async () => {
    const body = multipartEvents([event(t, ++serial, { snapshotPart: 'face' }), event(t, ++serial)], [{ name: 'face', data: PNG }]);
    const sent = await signedCall(t, terminal, INTAKE_PATHS.events, body.body, { contentType: body.contentType });
    expect(sent.statusCode, sent.body).toBe(200);
    const [queued] = await deliveriesOf(developer.id);
    expect(await deliverDueCallbacks(await worker())).toEqual(['delivered']);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.path).toBe('/hooks/campus?v=1');
    const headers = request!.headers as Record<string, string>;
    expect(headers[CALLBACK_HEADERS.appId]).toBe(developer.appId);
    expect(headers[CALLBACK_HEADERS.deliveryId]).toBe(queued!.deliveryId);
    // Verified as a receiver does: HMAC-SHA256 with its secret over the Open API's string to sign.
    const expected = createHmac('sha256', developer.secret)
      .update(
        openStringToSign({
          method: 'POST',
          pathWithQuery: request!.path,
          timestamp: headers[CALLBACK_HEADERS.timestamp]!,
          nonce: headers[CALLBACK_HEADERS.nonce]!,
          bodySha256Hex: createHash('sha256').update(request!.body).digest('hex'),
        }),
      )
      .digest('hex');
    expect(headers[CALLBACK_HEADERS.signature]).toBe(expected);
    expect(createHmac('sha256', 'another secret').update(request!.body).digest('hex')).not.toBe(expected);

    const payload = JSON.parse(request!.body) as DeveloperCallbackBody;
    expect(payload.deliveryId).toBe(queued!.deliveryId);
    expect(payload.schoolId).toBe(school);
    expect(payload.events).toHaveLength(2);
    expect(payload.events[0]!.snapshot).toMatch(/^\/uploads\/.+\?e=\d+&s=[\w-]+$/);
    expect(payload.events[1]!.snapshot).toBeNull();

    // Delivered: the queue forgets it, the log keeps the attempt.
    expect(await deliveriesOf(developer.id)).toHaveLength(0);
    const [logged] = await attemptsOf(queued!.deliveryId);
    expect(logged).toMatchObject({ outcome: 'delivered', httpStatus: 200, attempt: 1, eventCount: 2, nextAttemptAt: null, error: null });
    expect(logged!.durationMs).toEqual(expect.any(Number));
  });

  it('backs off exponentially with jitter after a failure, and counts the attempts', async () => {
    expect(callbackDelayMs(1, () => 0)).toBe(15_000);
    expect(callbackDelayMs(1, () => 1)).toBe(30_000);
    expect(callbackDelayMs(3, () => 1)).toBe(120_000);
    expect(callbackDelayMs(30, () => 1)).toBe(3_600_000);

    await arrivals(1);
    receiver.state.status = 503;
    const run = await worker();
    expect(await deliverDueCallbacks(run)).toEqual(['retrying']);
    let [queued] = await deliveriesOf(developer.id);
    expect(queued).toMatchObject({ state: 'pending', attempts: 1, leaseId: null });
    expect(queued!.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(30_000);
    // Not due yet: nothing is sent.
    expect(await deliverDueCallbacks(run)).toEqual([]);
    t.clock.advance(30_000);
    expect(await deliverDueCallbacks(run)).toEqual(['retrying']);
    [queued] = await deliveriesOf(developer.id);
    expect(queued!.attempts).toBe(2);
    expect(queued!.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(60_000);
    const log = await attemptsOf(queued!.deliveryId);
    expect(log.map((row) => [row.attempt, row.outcome, row.httpStatus])).toEqual([
      [2, 'retrying', 503],
      [1, 'retrying', 503],
    ]);
    expect(receiver.received).toHaveLength(2);
  });

  it('counts a receiver that never answers as a failure after the timeout', async () => {
    await arrivals(1);
    receiver.state.status = null;
    expect(await deliverDueCallbacks(await worker({ timeoutMs: 200 }))).toEqual(['retrying']);
    const [queued] = await deliveriesOf(developer.id);
    const [logged] = await attemptsOf(queued!.deliveryId);
    expect(logged).toMatchObject({ outcome: 'retrying', httpStatus: null });
    expect(logged!.error).toMatch(/no answer within 200 ms/);
  });

  it(`gives up after ${CALLBACK_MAX_ATTEMPTS} attempts (DEAD), and an operator's retry sends it once more`, async () => {
    await arrivals(2);
    receiver.state.status = 500;
    const run = await worker();
    for (let attempt = 1; attempt <= CALLBACK_MAX_ATTEMPTS; attempt += 1) {
      expect(await deliverDueCallbacks(run)).toEqual([attempt < CALLBACK_MAX_ATTEMPTS ? 'retrying' : 'dead']);
      t.clock.advance(2 * 60 * 60_000);
    }
    const [dead] = await deliveriesOf(developer.id);
    expect(dead).toMatchObject({ state: 'dead', attempts: CALLBACK_MAX_ATTEMPTS });
    expect(await deliverDueCallbacks(run)).toEqual([]);
    expect(receiver.received).toHaveLength(CALLBACK_MAX_ATTEMPTS);
    const [last] = await attemptsOf(dead!.deliveryId);
    expect(last).toMatchObject({ outcome: 'dead', attempt: CALLBACK_MAX_ATTEMPTS, nextAttemptAt: null });
    // Hours passed on the test clock: the operator signs in again.
    admin = await t.loginAs('admin');

    // The log page lists it, offering Retry on the dead row.
    const page = await deliveryCall(admin, 'Search', { developerId: developer.id, outcome: 'dead', attemptedAt: [new Date(0).toISOString(), t.clock.now().toISOString()] });
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json().data.items as Row[]).map((row) => row.id)).toContain(last!.id);

    receiver.state.status = 204;
    const retried = await deliveryCall(admin, 'Retry', { id: last!.id });
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await deliveriesOf(developer.id))[0]).toMatchObject({ state: 'pending' });
    // Queued again already: a second retry is refused.
    expect((await deliveryCall(admin, 'Retry', { id: last!.id })).statusCode).toBe(409);
    expect(await deliverDueCallbacks(run)).toEqual(['delivered']);
    const deliveryIds = receiver.received.map((request) => request.headers[CALLBACK_HEADERS.deliveryId]);
    expect(new Set(deliveryIds)).toEqual(new Set([dead!.deliveryId]));
    expect(await deliveriesOf(developer.id)).toHaveLength(0);
    // Delivered: nothing left to retry.
    expect((await deliveryCall(admin, 'Retry', { id: last!.id })).statusCode).toBe(409);
  });

  it('never sends one delivery from two workers running at once', async () => {
    for (let batch = 0; batch < 12; batch += 1) await arrivals(1);
    receiver.state.delayMs = 30;
    const [first, second] = [await worker({ batchSize: 8 }), await worker({ batchSize: 8 })];
    const outcomes = (await Promise.all([deliverDueCallbacks(first), deliverDueCallbacks(second)])).flat();
    const again = await deliverDueCallbacks(first);
    expect([...outcomes, ...again]).toEqual(Array(12).fill('delivered'));
    const deliveryIds = receiver.received.map((request) => request.headers[CALLBACK_HEADERS.deliveryId]);
    expect(deliveryIds).toHaveLength(12);
    expect(new Set(deliveryIds).size).toBe(12);
  });
});

describe('developer-callback-purge', () => {
  it('drops dead deliveries past the log retention, never pending ones', async () => {
    const now = t.clock.now();
    const old = new Date(now.getTime() - 31 * 86_400_000);
    const row = (key: string, state: string, createdAt: Date) => ({ deliveryId: key, developerId: developer.id, schoolId: school, events: [], eventCount: 0, state, nextAttemptAt: createdAt, createdAt });
    await t.db.insert(developerDeliveries).values([row('dlv_old_dead', 'dead', old), row('dlv_new_dead', 'dead', now), row('dlv_old_pending', 'pending', old)]);
    await deadCallbackPurgeJob.run(t.db, now);
    expect((await deliveriesOf(developer.id)).map((delivery) => delivery.deliveryId).sort()).toEqual(['dlv_new_dead', 'dlv_old_pending']);
  });
});

describe('the delivery log (DeveloperDelivery on developManage)', () => {
  it('answers company users holding developManage only', async () => {
    for (const account of ['agent1']) {
      const token = await t.loginAs(account);
      expect((await deliveryCall(token, 'Search', {})).statusCode).toBe(403);
    }
    const all = await deliveryCall(admin, 'Search', { developerId: developer.id });
    expect(all.statusCode, all.body).toBe(200);
    const rows = all.json().data.items as Row[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.developerId === developer.id && row.developerIdLabel === '家校通')).toBe(true);
  });

  it('goes with its developer', async () => {
    const gone = await addDeveloper({ name: '将删除', callbackUrl: `${base}/gone`, schoolIds: [school] });
    await arrivals(1);
    expect(await deliverDueCallbacks(await worker())).toEqual(['delivered', 'delivered']);
    const logged = await t.db.select().from(developerDeliveryAttempts).where(eq(developerDeliveryAttempts.developerId, gone.id));
    expect(logged).toHaveLength(1);
    expect((await developerCall('BatchDelete', [gone.id])).statusCode).toBe(200);
    expect(await t.db.select().from(developerDeliveryAttempts).where(inArray(developerDeliveryAttempts.id, logged.map((row) => row.id)))).toHaveLength(0);
  });
});

describe('callback addresses', () => {
  it('refuses internal addresses on save, and sends nothing to one allowed before the policy changed', async () => {
    for (const callbackUrl of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.5/hook', 'http://[fd00::1]/hook', 'https://db.internal/hook']) {
      const refused = await developerCall('Add', { name: '内网', callbackUrl });
      expect(refused.statusCode, callbackUrl).toBe(400);
      expect(refused.json().data.errors[0]).toMatchObject({ path: 'callbackUrl' });
    }
    await arrivals(1);
    // Production's policy (no allow-list): the receiver on 127.0.0.1 is refused at send time.
    expect(await deliverDueCallbacks(await worker({ policy: callbackPolicyOf({ NODE_ENV: 'production' }) }))).toEqual(['retrying']);
    expect(receiver.received).toHaveLength(0);
    const [queued] = await deliveriesOf(developer.id);
    expect((await attemptsOf(queued!.deliveryId))[0]!.error).toMatch(/not allowed/);
  });
});
