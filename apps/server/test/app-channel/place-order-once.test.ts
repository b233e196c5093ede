/**
 * PlaceMallOrder in few round trips (mall/orders.ts placeOrderOnce): a one-commodity order is one
 * read and one statement that claims its key with its answer, inserts the order and takes the stock.
 * What it must keep: no oversell, a replay answers the same order, a price changed in between is 409,
 * a sold-out attempt is refused before its key is claimed, and a statement that fails writes nothing.
 */
import { APP_MALL_PATHS, APP_PATHS, type PlaceMallOrderInput } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import pg from 'pg';
import { recordSentStatements } from '../helpers/sent-statements.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { marketCommodities, marketCommodityReleases } from '../../src/db/schema/mall.js';
import { keyInStatement } from '../../src/app-channel/idempotency.js';
import { createParentSession } from '../../src/app-channel/sessions.js';
import { placeOrderOnce, type PlaceOrderInput } from '../../src/mall/orders.js';
import { AppError } from '../../src/platform/errors.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { parentsWithAddresses, releasedCommodity } from '../mall/mall-fixtures.js';
import { unique } from '../resources/fixtures.js';
import { demoParents } from './support.js';

type Rows<T> = { rows: T[] };

let t: TestApp;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  schoolId = (await demoParents(t))[0]!.schoolId;
});
afterAll(() => t.close());

/** Parents of the school, each with an address and a session of its own (no sign-in: a hundred would measure password hashing). */
async function buyers(count: number): Promise<{ parentId: number; addressId: number; token: string }[]> {
  const made = await parentsWithAddresses(t, schoolId, count);
  return Promise.all(made.map(async (buyer) => ({ ...buyer, token: (await createParentSession(t.db, { parentId: buyer.parentId, now: t.clock.now() })).token })));
}

const place = (token: string, payload: PlaceMallOrderInput, key = `order-${unique()}`) =>
  t.app.inject({ method: 'POST', url: APP_MALL_PATHS.placeOrder, headers: { authorization: `Bearer ${token}`, 'idempotency-key': key }, payload });

const stockOf = async (commodityId: number) => (await t.db.select({ stock: marketCommodities.stockCount }).from(marketCommodities).where(eq(marketCommodities.id, commodityId)))[0]!.stock;
const count = async (query: ReturnType<typeof sql>) => Number(((await t.db.execute(query)) as unknown as Rows<{ n: number }>).rows[0]!.n);
const ordersOf = (parentId: number) => count(sql`select count(*)::int as n from market_orders where parent_id = ${parentId}`);
const keysOf = (parentId: number) => count(sql`select count(*)::int as n from app_idempotency_keys where parent_id = ${parentId}`);

/** The channel's key for a call of PlaceMallOrder, as keyInStatement makes it from the request. */
const keyOf = (parentId: number, key: string, body: PlaceOrderInput) =>
  keyInStatement({ parent: { id: parentId }, headers: { 'idempotency-key': key }, server: { clock: t.clock }, method: 'POST', routeOptions: { url: APP_MALL_PATHS.placeOrder }, body } as unknown as FastifyRequest);

/** The database, with `meanwhile` run just before each run of the batch's statement (the write; prepared apart, as the read is). */
function withBatchStatement(meanwhile: () => Promise<unknown>): Database {
  type Session = Database['_']['session'];
  const session = new Proxy(t.db._.session, {
    get(target, property, receiver) {
      if (property !== 'prepareQuery') return Reflect.get(target, property, receiver);
      return (...args: Parameters<Session['prepareQuery']>) => {
        const prepared = target.prepareQuery(...args);
        if (args[2] !== 'campus_mall_place_batch') return prepared;
        return {
          execute: async (values?: Record<string, unknown>) => {
            await meanwhile();
            return prepared.execute(values);
          },
        };
      };
    },
  });
  return new Proxy(t.db, { get: (target, property, receiver) => (property === '_' ? { ...target._, session } : Reflect.get(target, property, receiver)) });
}

describe('PlaceMallOrder through the channel', () => {
  it('sells exactly the stock to 100 concurrent buyers: 10 placed and stored, stock 0, keys kept for the placed only', async () => {
    const commodityId = await releasedCommodity(t, { stock: 10, unitPrice: 990 });
    const all = await buyers(100);
    const answers = await Promise.all(all.map((buyer) => place(buyer.token, { lines: [{ commodityId, quantity: 1 }], addressId: buyer.addressId })));
    const placed = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json().data as { orderId: number; orderNo: string; payAmount: number });
    expect(placed).toHaveLength(10);
    expect(answers.filter((answer) => answer.statusCode === 400 && answer.json().data.errors[0].path === 'lines')).toHaveLength(90);
    expect(await stockOf(commodityId)).toBe(0);
    const stored = (await t.db.execute(sql`select o.id, o.order_no as "orderNo", o.pay_amount as "payAmount" from market_orders o join market_order_lines l on l.market_order_id = o.id
      where l.commodity_id = ${commodityId} order by o.id`)) as unknown as Rows<{ id: number; orderNo: string; payAmount: number }>;
    expect(stored.rows.map((row) => ({ orderId: Number(row.id), orderNo: row.orderNo, payAmount: Number(row.payAmount) }))).toEqual([...placed].sort((a, b) => a.orderId - b.orderId));
    expect(placed.every((order) => order.payAmount === 990)).toBe(true);
    const keys = await count(sql`select count(*)::int as n from app_idempotency_keys where parent_id in (${sql.join(all.map((buyer) => sql`${buyer.parentId}`), sql`, `)})`);
    expect(keys).toBe(10);
  });

  it('answers a replay, even one sent at the same moment, with the same order, placed once', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5 });
    const [buyer] = await buyers(1);
    const payload = { lines: [{ commodityId, quantity: 2 }], addressId: buyer!.addressId };
    const key = `twice-${unique()}`;
    const [first, second] = await Promise.all([place(buyer!.token, payload, key), place(buyer!.token, payload, key)]);
    expect(first!.statusCode, first!.body).toBe(200);
    expect(second!.json()).toEqual(first!.json());
    expect((await place(buyer!.token, payload, key)).json()).toEqual(first!.json());
    expect(await ordersOf(buyer!.parentId)).toBe(1);
    expect(await stockOf(commodityId)).toBe(3);
    // The same key with another body is still refused.
    expect((await place(buyer!.token, { ...payload, lines: [{ commodityId, quantity: 1 }] }, key)).statusCode).toBe(409);
  });

  it("places a crowd's orders of one commodity in batches, each order whole: fewer statements than orders", async () => {
    const commodityId = await releasedCommodity(t, { stock: 20, unitPrice: 500 });
    const all = await buyers(20);
    let batches = 0;
    const db = withBatchStatement(() => {
      batches += 1;
      return Promise.resolve();
    });
    const outcomes = await Promise.all(
      all.map((buyer) => {
        const input = { lines: [{ commodityId, quantity: 1 }], addressId: buyer.addressId };
        return placeOrderOnce(db, buyer.parentId, input, t.clock.now(), keyOf(buyer.parentId, `crowd-${unique()}`, input));
      }),
    );
    expect(outcomes.every((outcome) => 'placed' in outcome)).toBe(true);
    expect(new Set(outcomes.map((outcome) => ('placed' in outcome ? outcome.placed.orderId : 0))).size).toBe(20);
    expect(batches).toBeGreaterThan(0);
    expect(batches).toBeLessThan(20);
    expect(await stockOf(commodityId)).toBe(0);
    expect(await count(sql`select count(*)::int as n from market_order_lines where commodity_id = ${commodityId} and quantity = 1 and amount = 500 and paid_amount = 500`)).toBe(20);
  });

  it('sells what the stock covers when quantities differ: 3 + 3 + 2 against 5 places 5, refuses one 3 as out of stock', async () => {
    const commodityId = await releasedCommodity(t, { stock: 5 });
    const all = await buyers(3);
    const quantities = [3, 3, 2];
    const answers = await Promise.all(all.map((buyer, i) => place(buyer.token, { lines: [{ commodityId, quantity: quantities[i]! }], addressId: buyer.addressId })));
    const sold = answers.reduce((sum, answer, i) => sum + (answer.statusCode === 200 ? quantities[i]! : 0), 0);
    expect(sold).toBe(5);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.json().data.errors[0]).toMatchObject({ path: 'lines', key: 'mall.outOfStock' });
    expect(await stockOf(commodityId)).toBe(0);
    expect(await count(sql`select coalesce(sum(quantity), 0)::int as n from market_order_lines where commodity_id = ${commodityId}`)).toBe(5);
  });

  it("places the others of a batch when one's key is claimed by another call while the batch waits for it (PostgreSQL)", async (context) => {
    if (process.env.TEST_DB !== 'postgres') return context.skip();
    const commodityId = await releasedCommodity(t, { stock: 4 });
    const all = await buyers(3);
    const victim = all[1]!;
    const victimKey = `held-${unique()}`;
    // Another call's claim of the victim's key, not committed: the read cannot see it, the batch's insert waits on it.
    const other = new pg.Client({ connectionString: t.env.DATABASE_URL });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`insert into app_idempotency_keys (parent_id, key, request_hash, created_at) values ($1, $2, 'another call', now())`, [victim.parentId, victimKey]);
      let first = true;
      const db = withBatchStatement(async () => {
        // The first batch waits a moment, so the others arrive meanwhile and go together in the next.
        if (first) await new Promise((resolve) => setTimeout(resolve, 300));
        first = false;
      });
      // Commits the other call's claim once a statement waits on it.
      const committed = (async () => {
        for (;;) {
          const waiting = await other.query(`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`);
          if (Number(waiting.rows[0].n) > 0) return other.query('commit');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const outcomes = await Promise.all(
        all.map((buyer) => {
          const input = { lines: [{ commodityId, quantity: 1 }], addressId: buyer.addressId };
          const key = buyer === victim ? victimKey : `batch-${unique()}`;
          return placeOrderOnce(db, buyer.parentId, input, t.clock.now(), keyOf(buyer.parentId, key, input));
        }),
      );
      await committed;
      expect(outcomes.map((outcome) => ('placed' in outcome ? 'placed' : 'usual'))).toEqual(['placed', 'usual', 'placed']);
      expect([await stockOf(commodityId), await ordersOf(victim.parentId)]).toEqual([2, 0]);
    } finally {
      await other.end();
    }
  });

  it('costs three statements when placed and two when sold out, none of them a transaction (PostgreSQL)', async (context) => {
    if (process.env.TEST_DB !== 'postgres') return context.skip();
    const commodityId = await releasedCommodity(t, { stock: 1 });
    const [first, late] = await buyers(2);
    const { sent, stop } = recordSentStatements();
    try {
      expect((await place(first!.token, { lines: [{ commodityId, quantity: 1 }], addressId: first!.addressId })).statusCode).toBe(200);
      const placing = sent.splice(0);
      expect((await place(late!.token, { lines: [{ commodityId, quantity: 1 }], addressId: late!.addressId })).statusCode).toBe(400);
      const refusing = sent.splice(0);
      expect(placing, placing.join('\n')).toHaveLength(3);
      expect(refusing, refusing.join('\n')).toHaveLength(2);
      expect([...placing, ...refusing].filter((text) => /^\s*(begin|commit)/i.test(text))).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('what changes between the read and the write', () => {
  async function attempt(meanwhile: (commodityId: number, parentId: number, key: string) => Promise<unknown>) {
    const commodityId = await releasedCommodity(t, { stock: 4, unitPrice: 1_000 });
    const [buyer] = await buyers(1);
    const input = { lines: [{ commodityId, quantity: 1 }], addressId: buyer!.addressId };
    const key = `race-${unique()}`;
    const db = withBatchStatement(() => meanwhile(commodityId, buyer!.parentId, key));
    const outcome = await placeOrderOnce(db, buyer!.parentId, input, t.clock.now(), keyOf(buyer!.parentId, key, input)).then(
      (answer) => answer,
      (error: unknown) => (error instanceof AppError ? error : Promise.reject(error)),
    );
    return { outcome, commodityId, parentId: buyer!.parentId };
  }

  it('refuses a price changed in between with 409 mall.priceChanged, writing nothing and keeping no key', async () => {
    const { outcome, commodityId, parentId } = await attempt((commodityId) => t.db.update(marketCommodities).set({ unitPrice: 1_200 }).where(eq(marketCommodities.id, commodityId)));
    expect(outcome).toBeInstanceOf(AppError);
    expect((outcome as AppError).httpStatus).toBe(409);
    expect((outcome as AppError).reason.key).toBe('mall.priceChanged');
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([4, 0, 0]);
  });

  it('refuses the last items taken in between as out of stock (400 on lines), writing nothing', async () => {
    const { outcome, commodityId, parentId } = await attempt((commodityId) => t.db.update(marketCommodities).set({ stockCount: 0 }).where(eq(marketCommodities.id, commodityId)));
    expect((outcome as AppError).fieldProblems[0]).toMatchObject({ path: 'lines', key: 'mall.outOfStock' });
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([0, 0, 0]);
  });

  it('refuses a commodity disabled in between as not on sale, writing nothing', async () => {
    const { outcome, commodityId, parentId } = await attempt((commodityId) => t.db.update(marketCommodities).set({ isEnabled: false }).where(eq(marketCommodities.id, commodityId)));
    expect((outcome as AppError).fieldProblems[0]).toMatchObject({ path: 'lines', key: 'mall.notOnSale' });
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([4, 0, 0]);
  });

  it("refuses a release ended in between as not on sale (the batch checks each order's school), writing nothing", async () => {
    const { outcome, commodityId, parentId } = await attempt((commodityId) => t.db.update(marketCommodityReleases).set({ enabled: false }).where(eq(marketCommodityReleases.commodityId, commodityId)));
    expect((outcome as AppError).fieldProblems[0]).toMatchObject({ path: 'lines', key: 'mall.notOnSale' });
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([4, 0, 0]);
  });

  it('leaves the stock alone and goes the usual way when another call claimed the key in between', async () => {
    const { outcome, commodityId, parentId } = await attempt((_, parentId, key) =>
      t.db.execute(sql`insert into app_idempotency_keys (parent_id, key, request_hash, created_at) values (${parentId}, ${key}, 'another call', ${t.clock.now().toISOString()}::timestamptz)`),
    );
    expect(outcome).toMatchObject({ usual: { payAmount: 1_000 } });
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([4, 0, 1]);
  });

  it('tells a held key before a sold-out line, so a replay of the order that took the last item is never answered "sold out"', async () => {
    const { outcome, commodityId, parentId } = await attempt(async (commodityId, parentId, key) => {
      await t.db.update(marketCommodities).set({ stockCount: 0 }).where(eq(marketCommodities.id, commodityId));
      await t.db.execute(sql`insert into app_idempotency_keys (parent_id, key, request_hash, created_at) values (${parentId}, ${key}, 'another call', ${t.clock.now().toISOString()}::timestamptz)`);
    });
    expect(outcome).toMatchObject({ usual: { payAmount: 1_000 } });
    expect([await stockOf(commodityId), await ordersOf(parentId), await keysOf(parentId)]).toEqual([0, 0, 1]);
  });
});

describe("the parent's session touch", () => {
  it('writes the sliding expiry at most every 5 minutes: a call sooner reads the session and writes nothing', async () => {
    const [buyer] = await buyers(1);
    const seen = async () =>
      ((await t.db.execute(sql`select last_seen_at as "lastSeenAt", expires_at as "expiresAt" from parent_sessions where parent_id = ${buyer!.parentId}`)) as unknown as Rows<{ lastSeenAt: unknown; expiresAt: unknown }>).rows.map(
        (row) => [new Date(String(row.lastSeenAt)).getTime(), new Date(String(row.expiresAt)).getTime()],
      )[0]!;
    const call = async () => expect((await t.app.inject({ method: 'GET', url: APP_PATHS.children, headers: { authorization: `Bearer ${buyer!.token}` } })).statusCode).toBe(200);
    const started = t.clock.now().getTime();
    const [firstSeen, firstExpiry] = await seen();
    t.clock.advance(5 * 60_000 - 1_000);
    await call();
    expect(await seen()).toEqual([firstSeen, firstExpiry]);
    t.clock.advance(1_000);
    await call();
    expect(await seen()).toEqual([started + 5 * 60_000, started + 5 * 60_000 + 30 * 86_400_000]);
  });
});
