/**
 * Parents' album orders: the price is the spec's price config at the time of ordering (the school's,
 * else its province's, else the default; docs/decisions.md "Album prices: JD, ZC and SJ"), the order
 * is the AlbumOrder family's own Add, and it is paid through the finance provider at once; a paid
 * electronic order is read through a signed page-turning view.
 */
import {
  ALBUM_BOOK_DONE,
  ALBUM_ORDER_ELECTRONIC,
  ALBUM_ORDER_PRINTED,
  ALBUM_ORDER_UNPAID,
  ALBUM_VIEW_PREFIX,
  AlbumOrder,
  ErrorCode,
  PROBE_NAMES,
  type AppAlbumOrder,
  type PaymentChannel,
  type AppAlbumOrderAnswer,
  type ButtonValue,
  type VisibilityProbes,
} from '@campus/contract';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { albumBookVersions, albumBooks, albumOrders, albumPriceConfigs, albumTasks, albumTemplates, schools, students } from '../db/schema/index.js';
import type { AuthUser } from '../platform/auth.js';
import { CHANNEL_OF_PROVIDER } from '../finance/payment-notifications.js';
import { recordPayment } from '../finance/payments.js';
import { AppError, badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { deploymentSigner } from '../platform/signatures.js';
import type { EngineContext } from '../resources/engine/context.js';
import { NO_CONSOLE_USER_ID } from '../resources/engine/services.js';
import { applySystemTransition } from '../resources/engine/workflow.js';
import { addRow } from '../resources/engine/write.js';

/** The parent a channel call is made for (app-channel's AppParent, as far as orders read it). */
export interface AppParent {
  id: number;
  name: string;
  phoneNum: string;
  children: { id: number; schoolId: number }[];
  schoolIds: number[];
}

export interface AlbumPrices {
  unitPriceJD: number;
  unitPriceZC: number;
  unitPriceSJ: number;
}

/** The price of a spec for a school: the school's row, else its province's, else the default; undefined when none is set. */
export async function albumPriceFor(db: Executor, specId: number, schoolId: number): Promise<AlbumPrices | undefined> {
  const [school] = await db.select({ province: schools.province }).from(schools).where(eq(schools.id, schoolId));
  const rows = await db
    .select()
    .from(albumPriceConfigs)
    .where(
      and(
        eq(albumPriceConfigs.specId, specId),
        or(eq(albumPriceConfigs.schoolId, schoolId), and(isNull(albumPriceConfigs.schoolId), school?.province ? or(eq(albumPriceConfigs.province, school.province), isNull(albumPriceConfigs.province)) : isNull(albumPriceConfigs.province))),
      ),
    );
  const rank = (row: (typeof rows)[number]) => (row.schoolId !== null ? 0 : row.province !== null ? 1 : 2);
  const best = rows.sort((a, b) => rank(a) - rank(b))[0];
  return best ? { unitPriceJD: Number(best.unitPriceJD), unitPriceZC: Number(best.unitPriceZC), unitPriceSJ: Number(best.unitPriceSJ) } : undefined;
}

/** What an order costs: JD for the first printed copy and ZC for each further one; SJ for an electronic album. */
export function albumOrderAmount(prices: AlbumPrices, kind: number, copies: number): { unitPrice: number; amount: number } {
  if (kind === ALBUM_ORDER_ELECTRONIC) return { unitPrice: prices.unitPriceSJ, amount: prices.unitPriceSJ };
  return { unitPrice: prices.unitPriceJD, amount: prices.unitPriceJD + (copies - 1) * prices.unitPriceZC };
}

/** The done books of the parent's children, with their spec; another family's books are never read. */
export async function parentBooks(db: Executor, parent: AppParent, bookId?: number) {
  const childIds = parent.children.map((child) => child.id);
  if (childIds.length === 0) return [];
  return db
    .select({
      id: albumBooks.id,
      version: albumBooks.version,
      studentId: albumBooks.studentId,
      studentName: students.name,
      schoolId: students.schoolId,
      taskName: albumTasks.name,
      pageCount: albumBooks.pageCount,
      layout: albumBooks.layout,
      pdfFile: albumBooks.pdfFile,
      specId: albumTemplates.specId,
    })
    .from(albumBooks)
    .innerJoin(students, eq(students.id, albumBooks.studentId))
    .innerJoin(albumTasks, eq(albumTasks.id, albumBooks.taskId))
    .innerJoin(albumTemplates, eq(albumTemplates.id, albumTasks.templateId))
    .where(and(inArray(albumBooks.studentId, childIds), eq(albumBooks.state, ALBUM_BOOK_DONE), bookId === undefined ? undefined : eq(albumBooks.id, bookId)))
    .orderBy(desc(albumBooks.id));
}

/** The engine's caller for a parent's order: no console account, the parent's schools as its scope. */
function channelContext(server: FastifyInstance, parent: AppParent): EngineContext {
  const user: AuthUser = { id: NO_CONSOLE_USER_ID, loginName: `app:${parent.phoneNum}`, name: parent.name, type: 'external', parentId: null, salesTeamId: null, sellerPosition: null, sessionId: 0 };
  const probes = Object.fromEntries(PROBE_NAMES.map((name) => [name, false])) as VisibilityProbes;
  return { db: server.db, user, scope: { kind: 'schools', schoolIds: parent.schoolIds }, def: AlbumOrder, view: AlbumOrder.views[0]!, buttons: new Set<ButtonValue>(['add']), probes, locale: 'zh', clock: server.clock, server };
}

/** Places a parent's order of one of its children's books at today's price and pays it through the active provider. */
export async function placeAlbumOrder(server: FastifyInstance, parent: AppParent, input: AppAlbumOrder): Promise<AppAlbumOrderAnswer> {
  const [book] = await parentBooks(server.db, parent, input.bookId);
  if (!book) throw notFound();
  const printed = input.kind === ALBUM_ORDER_PRINTED;
  if (printed && (!input.consigneeName || !input.consigneePhone || !input.deliveryAddress)) throw badRequest([{ path: 'deliveryAddress', ...msg('validation.required') }]);
  const copies = printed ? input.copies : 1;
  let versionId: number | null = null;
  if (input.versionNo !== undefined) {
    const [version] = await server.db.select({ id: albumBookVersions.id }).from(albumBookVersions).where(and(eq(albumBookVersions.bookId, book.id), eq(albumBookVersions.versionNo, input.versionNo)));
    if (!version) throw badRequest([{ path: 'versionNo', ...msg('album.noSuchVersion') }]);
    versionId = version.id;
  }
  const ctx = { ...channelContext(server, parent), view: AlbumOrder.views[printed ? 0 : 1]! };
  const { id } = await server.db.transaction(async (tx) => {
    const added = await addRow({ ...ctx, db: tx as unknown as Database }, {
      kind: input.kind,
      bookId: book.id,
      versionId,
      parentId: parent.id,
      copies,
      consigneeName: printed ? input.consigneeName : null,
      consigneePhone: printed ? input.consigneePhone : null,
      deliveryAddress: printed ? input.deliveryAddress : null,
    });
    return added;
  });
  return payAlbumOrder(server, parent, id, input.scene);
}

/** The `attach` of an album order's payment: its id, which the provider's notification answers back (albums' seam, resources/album.ts). */
export function albumOrderAttachOf(orderId: number): string {
  return JSON.stringify({ albumOrderId: orderId });
}

/** The album order an `attach` names, or undefined for any other order's attach. */
export function albumOrderOfAttach(text: unknown): number | undefined {
  if (typeof text !== 'string' || !text.includes('albumOrderId')) return undefined;
  try {
    const parsed = JSON.parse(text) as { albumOrderId?: unknown };
    return typeof parsed.albumOrderId === 'number' && Number.isSafeInteger(parsed.albumOrderId) ? parsed.albumOrderId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Marks an unpaid album order paid by a payment the provider settled, in the caller's transaction:
 * records the payment (with its ledger split, as every parent's payment) and moves the order to paid.
 * A payment already recorded on the order (a retried notification) changes nothing; any other
 * payment of an order no longer unpaid is 409 (the caller keeps the money on record: resources/album.ts).
 */
export async function settleAlbumOrderPayment(tx: Executor, orderId: number, payment: { channel: PaymentChannel; tradeNo: string; paidAt: Date }): Promise<void> {
  const [order] = await tx.select().from(albumOrders).where(eq(albumOrders.id, orderId)).for('update');
  if (!order) throw notFound();
  if (order.state !== ALBUM_ORDER_UNPAID) {
    if (order.tradeNo === payment.tradeNo) return;
    throw conflict(msg('error.wrongState', { state: { zh: '', en: '', ...AlbumOrder.fields.state.options.find((option) => option.value === order.state) }, action: { zh: '支付', en: 'Pay' } }));
  }
  const amount = Number(order.amount ?? 0);
  if (amount > 0) {
    await recordPayment(tx, {
      schoolId: Number(order.schoolId),
      parentId: order.parentId,
      studentId: order.studentId ?? undefined,
      amount,
      channel: payment.channel,
      tradeNo: payment.tradeNo,
      outTradeNo: order.orderNo ?? undefined,
      paidAt: payment.paidAt,
    });
  }
  await applySystemTransition(tx, AlbumOrder, order, 'Pay', { values: { paidAt: payment.paidAt, tradeNo: payment.tradeNo }, now: payment.paidAt });
}

/**
 * Pays an unpaid order of the parent through the active provider. The demo provider settles at once;
 * WeChat Pay answers `pending` with what the app opens, and its notification pays the order.
 */
export async function payAlbumOrder(server: FastifyInstance, parent: AppParent, orderId: number, scene: 'app' | 'native' = 'app'): Promise<AppAlbumOrderAnswer> {
  const [order] = await server.db.select().from(albumOrders).where(and(eq(albumOrders.id, orderId), eq(albumOrders.parentId, parent.id)));
  if (!order) throw notFound();
  let pending: Pick<AppAlbumOrderAnswer, 'outcome' | 'payParams' | 'payUrl'> = { outcome: 'none', payParams: null, payUrl: null };
  if (order.state === ALBUM_ORDER_UNPAID) {
    const provider = server.payments.active;
    const answer = await provider.pay({ outTradeNo: order.orderNo!, amount: Number(order.amount), description: `相册订单 ${order.orderNo}`, attach: albumOrderAttachOf(orderId), scene });
    if (answer.outcome === 'unknown') throw new AppError(503, ErrorCode.ServiceUnavailable, msg('app.paymentUnknown'));
    if (answer.outcome === 'failed') throw conflict(msg('app.paymentFailed', { message: answer.message ?? answer.outcome }));
    if (answer.outcome === 'paid') {
      const paidAt = server.clock.now();
      await server.db.transaction((tx) => settleAlbumOrderPayment(tx, orderId, { channel: CHANNEL_OF_PROVIDER[provider.name], tradeNo: answer.providerTradeNo ?? order.orderNo!, paidAt }));
      pending = { outcome: 'paid', payParams: null, payUrl: null };
    } else {
      pending = { outcome: 'pending', payParams: answer.appPayParams ?? null, payUrl: answer.payUrl ?? null };
    }
  }
  const [paid] = await server.db.select().from(albumOrders).where(eq(albumOrders.id, orderId));
  return { ...(await orderAnswerOf(server, paid!)), ...pending };
}

/** An order as the app reads it. */
async function orderAnswerOf(server: FastifyInstance, row: typeof albumOrders.$inferSelect): Promise<AppAlbumOrderAnswer> {
  return {
    id: row.id,
    orderNo: String(row.orderNo),
    kind: Number(row.kind),
    copies: Number(row.copies),
    amount: Number(row.amount),
    state: Number(row.state),
    viewUrl: row.kind === ALBUM_ORDER_ELECTRONIC && row.state !== ALBUM_ORDER_UNPAID ? await albumViewUrl(server, row.id) : null,
    outcome: 'none',
    payParams: null,
    payUrl: null,
  };
}

/** The parent's orders, newest first. */
export async function parentAlbumOrders(server: FastifyInstance, parent: AppParent): Promise<AppAlbumOrderAnswer[]> {
  const rows = await server.db.select().from(albumOrders).where(eq(albumOrders.parentId, parent.id)).orderBy(desc(albumOrders.id)).limit(100);
  return Promise.all(rows.map((row) => orderAnswerOf(server, row)));
}

/** How long a view link opens the album: a year, for an album bought to keep (a new link comes with every read of the order). */
const VIEW_LIFETIME_SECONDS = 365 * 86_400;

const viewSigner = (db: Database) => deploymentSigner(db, 'albums.viewSecret');
const viewText = (orderId: number, expires: string) => `album-view\n${orderId}\n${expires}`;

/** The signed address of an electronic order's page-turning view. */
export async function albumViewUrl(server: FastifyInstance, orderId: number): Promise<string> {
  const expires = String(Math.floor(server.clock.now().getTime() / 1000) + VIEW_LIFETIME_SECONDS);
  return `${ALBUM_VIEW_PREFIX}${orderId}?e=${expires}&s=${(await viewSigner(server.db)).sign(viewText(orderId, expires))}`;
}

/** Whether a view address's signature is this deployment's and still valid. */
export async function isValidViewSignature(server: FastifyInstance, orderId: number, e: string | undefined, s: string | undefined): Promise<boolean> {
  if (!e || !s || !/^\d{1,12}$/.test(e) || Number(e) * 1000 < server.clock.now().getTime()) return false;
  return (await viewSigner(server.db)).verify(viewText(orderId, e), s);
}

/** The book of a paid electronic order, for its view. */
export async function viewedBook(db: Executor, orderId: number) {
  const [row] = await db
    .select({ layout: sql<unknown>`coalesce(${albumBookVersions.layout}, ${albumBooks.layout})`, studentName: students.name, state: albumOrders.state, kind: albumOrders.kind })
    .from(albumOrders)
    .innerJoin(albumBooks, eq(albumBooks.id, albumOrders.bookId))
    .leftJoin(albumBookVersions, eq(albumBookVersions.id, albumOrders.versionId))
    .innerJoin(students, eq(students.id, albumBooks.studentId))
    .where(eq(albumOrders.id, orderId));
  return row && row.kind === ALBUM_ORDER_ELECTRONIC && row.state !== ALBUM_ORDER_UNPAID ? row : undefined;
}


