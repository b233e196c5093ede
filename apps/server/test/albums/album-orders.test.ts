import { ALBUM_APP_PATHS, ALBUM_ORDER_CLOSED, ALBUM_ORDER_PAID, ALBUM_ORDER_SENT } from '@campus/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumOrders, albumPriceConfigs } from '../../src/db/schema/index.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { asParent } from '../app-channel/support.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';
import { call, parentWithAlbumBook, printedOrder } from './album-fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  await grantEverything(t, 'agent1');
  [admin, agent1] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1')]);
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

const parentWithBook = () => parentWithAlbumBook(t, schoolId);

describe('parents order albums through the app channel', () => {
  it('prices an order from the price config at the time of ordering: school before default, JD + extra copies at ZC', async () => {
    const { token, bookId, specId } = await parentWithBook();
    const first = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId, 3) })).json();
    expect(first.code, JSON.stringify(first)).toBe(200);
    expect(first.data).toMatchObject({ amount: 12_800 + 2 * 6_800, state: ALBUM_ORDER_PAID, viewUrl: null });

    // A school's own price set afterwards applies to the next order only.
    await call(t, admin, 'POST', '/api/AlbumPriceConfig/Add', { specId, schoolId, unitPriceJD: 9_900, unitPriceZC: 4_900, unitPriceSJ: 990 });
    const second = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId, 2) })).json();
    expect(second.data.amount).toBe(9_900 + 4_900);
    const [stored] = await t.db.select({ amount: albumOrders.amount, unitPrice: albumOrders.unitPrice, pdfFile: albumOrders.pdfFile }).from(albumOrders).where(eq(albumOrders.id, first.data.id));
    expect(stored).toMatchObject({ amount: 12_800 + 2 * 6_800, unitPrice: 12_800 });
    // The book's PDF went with the order, although the parent never uploaded it.
    expect(stored!.pdfFile).toMatch(/^\/uploads\/.+\.pdf$/);

    const electronic = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: { bookId, kind: 2 } })).json();
    expect(electronic.data).toMatchObject({ amount: 990, copies: 1, state: ALBUM_ORDER_PAID });
    // The signed link opens the page-turning view without a sign-in; a forged one does not.
    const view = await t.app.inject({ method: 'GET', url: electronic.data.viewUrl });
    expect(view.statusCode).toBe(200);
    expect(view.headers['content-type']).toContain('text/html');
    expect(view.body).toContain('1 / 4');
    expect((await t.app.inject({ method: 'GET', url: electronic.data.viewUrl.replace(/s=[^&]+/, 's=forged') })).statusCode).toBe(404);
    // A printed order has no view.
    const [printedView] = [electronic.data.viewUrl.replace(`/album-view/${electronic.data.id}`, `/album-view/${first.data.id}`)];
    expect((await t.app.inject({ method: 'GET', url: printedView })).statusCode).toBe(404);
    await t.db.delete(albumPriceConfigs).where(eq(albumPriceConfigs.schoolId, schoolId));
  });

  it('lets a parent read and order only its own children’s books', async () => {
    const mine = await parentWithBook();
    const other = await parentWithBook();
    const books = (await asParent(t, mine.token, { method: 'GET', url: ALBUM_APP_PATHS.books })).json();
    expect(books.data.map((book: { id: number }) => book.id)).toEqual([mine.bookId]);
    const stranger = await asParent(t, mine.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(other.bookId) });
    expect(stranger.statusCode).toBe(404);
    expect(await t.db.select().from(albumOrders).where(eq(albumOrders.parentId, mine.parentId))).toEqual([]);
  });
});

describe('production', () => {
  it('moves a paid order from send to close, each step only from the one before; a wrong step is 409 and changes nothing', async () => {
    const { token, bookId } = await parentWithBook();
    const order = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId) })).json().data;
    const step = (verb: string) => t.injectAs(agent1, { method: 'POST', url: `/api/AlbumOrder/${verb}?view=albumProduction`, payload: { id: order.id, remark: verb } });
    const before = await t.db.select().from(albumOrders).where(eq(albumOrders.id, order.id));
    for (const early of ['NotifyPrint', 'AllowPrint', 'ConfirmReceipt', 'Close']) expect((await step(early)).statusCode).toBe(409);
    expect(await t.db.select().from(albumOrders).where(eq(albumOrders.id, order.id))).toEqual(before);

    expect((await step('Send')).statusCode).toBe(200);
    expect((await t.db.select({ state: albumOrders.state }).from(albumOrders).where(eq(albumOrders.id, order.id)))[0]!.state).toBe(ALBUM_ORDER_SENT);
    expect((await step('Send')).statusCode).toBe(409);
    for (const verb of ['NotifyPrint', 'AllowPrint', 'ConfirmReceipt', 'Close']) expect((await step(verb)).statusCode, verb).toBe(200);
    expect((await t.db.select({ state: albumOrders.state }).from(albumOrders).where(eq(albumOrders.id, order.id)))[0]!.state).toBe(ALBUM_ORDER_CLOSED);

    // Who and when, step by step.
    const history = await call<{ toState: number; userName?: string; userId?: number }[]>(t, agent1, 'GET', `/api/AlbumOrder/History?id=${order.id}&view=albumProduction`);
    expect(history.length).toBeGreaterThanOrEqual(5);
  });

  it('moves a batch of orders together, and refuses the whole batch with 409 naming a row in another state', async () => {
    const orders: { id: number; orderNo: string }[] = [];
    for (let index = 0; index < 3; index += 1) {
      const { token, bookId } = await parentWithBook();
      orders.push((await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId) })).json().data);
    }
    const ids = orders.map((order) => order.id);
    const batch = (verb: string, batchIds: number[]) => t.injectAs(agent1, { method: 'POST', url: `/api/AlbumOrder/Batch${verb}?view=albumProduction`, payload: { ids: batchIds, remark: `batch ${verb}` } });
    const states = async () => (await t.db.select({ id: albumOrders.id, state: albumOrders.state, version: albumOrders.version }).from(albumOrders).where(inArray(albumOrders.id, ids))).sort((a, b) => a.id - b.id);

    const sent = await batch('Send', ids.slice(0, 2));
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.items.map((item: { state: number }) => item.state)).toEqual([ALBUM_ORDER_SENT, ALBUM_ORDER_SENT]);
    const before = await states();
    expect(before.map((row) => row.state)).toEqual([ALBUM_ORDER_SENT, ALBUM_ORDER_SENT, ALBUM_ORDER_PAID]);

    // The third order is still paid: the batch is refused by name and no row moves, not even the first two.
    const refused = await batch('NotifyPrint', ids);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(orders[2]!.orderNo);
    expect(await states()).toEqual(before);
    const history = await call<unknown[]>(t, agent1, 'GET', `/api/AlbumOrder/History?id=${ids[0]}&view=albumProduction`);
    expect(history.filter((step) => (step as { verb?: string }).verb === 'NotifyPrint')).toEqual([]);

    // Another agent's order in the batch is 404, and nothing moves either.
    expect((await batch('Send', [ids[2]!, 2_000_000_000])).statusCode).toBe(404);
    expect(await states()).toEqual(before);

    expect((await batch('Send', [ids[2]!])).statusCode).toBe(200);
    for (const verb of ['NotifyPrint', 'AllowPrint', 'ConfirmReceipt', 'Close']) expect((await batch(verb, ids)).statusCode, verb).toBe(200);
    expect((await states()).map((row) => row.state)).toEqual([ALBUM_ORDER_CLOSED, ALBUM_ORDER_CLOSED, ALBUM_ORDER_CLOSED]);
  });

  it('keeps another agent’s orders from an agent', async () => {
    const agent2 = await t.loginAs('agent2');
    await grantEverything(t, 'agent2');
    const { token, bookId } = await parentWithBook();
    const order = (await asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: printedOrder(bookId) })).json().data;
    const agent2Token = await t.loginAs('agent2');
    expect((await t.injectAs(agent2Token, { method: 'GET', url: `/api/AlbumOrder/Get?id=${order.id}&view=albumProduction` })).statusCode).toBe(404);
    expect((await t.injectAs(agent2Token, { method: 'POST', url: '/api/AlbumOrder/Send?view=albumProduction', payload: { id: order.id } })).statusCode).toBe(404);
    void agent2;
  });
});
