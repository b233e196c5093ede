/** Rows the mall's tests start from: the catalogue staff would set up, and parents with addresses. */
import { MALL_ORDER_RECEIVED, POSTER_AUDIENCE_ALL } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { parents } from '../../src/db/schema/index.js';
import { marketAddresses, marketCategories, marketCommodities, marketCommodityReleases, marketMerchants, marketOrders, pointsCommodities } from '../../src/db/schema/mall.js';
import { placeOrder } from '../../src/mall/orders.js';
import type { TestApp } from '../helpers/test-app.js';
import { unique } from '../resources/fixtures.js';

/** A category and a merchant (commission 10 %). */
export async function mallCatalogue(t: TestApp): Promise<{ categoryId: number; merchantId: number }> {
  const n = unique();
  const [category] = await t.db.insert(marketCategories).values({ name: `文具${n}`, sortOrder: 0, enabled: true }).returning({ id: marketCategories.id });
  const [merchant] = await t.db
    .insert(marketMerchants)
    .values({ name: `商户${n}`, contactName: '张三', contactPhone: '13900001111', settlementBank: '建设银行', settlementAccount: '6222000011112222', commissionPercent: 10, enabled: true })
    .returning({ id: marketMerchants.id });
  return { categoryId: category!.id, merchantId: merchant!.id };
}

/** A commodity on sale to every school today, with the given stock and price (fen). */
export async function releasedCommodity(t: TestApp, options: { stock: number; unitPrice?: number; categoryId?: number; merchantId?: number }): Promise<number> {
  const { categoryId, merchantId } = options.categoryId && options.merchantId ? { categoryId: options.categoryId, merchantId: options.merchantId } : await mallCatalogue(t);
  const [commodity] = await t.db
    .insert(marketCommodities)
    .values({ title: `笔记本${unique()}`, categoryId, merchantId, unitPrice: options.unitPrice ?? 1_000, stockCount: options.stock, soldCount: 0, isEnabled: true })
    .returning({ id: marketCommodities.id });
  await t.db.insert(marketCommodityReleases).values({ title: '全部学校', commodityId: commodity!.id, startDate: '2020-01-01', endDate: '2099-12-31', audience: POSTER_AUDIENCE_ALL, sort: 0, enabled: true });
  return commodity!.id;
}

/** A parent of the school with a delivery address. */
export async function parentWithAddress(t: TestApp, schoolId: number): Promise<{ parentId: number; addressId: number }> {
  const n = unique();
  const [parent] = await t.db
    .insert(parents)
    .values({ phoneNum: `159${n.padStart(8, '0').slice(-8)}`, name: `家长${n}`, schoolId, enabled: true })
    .returning({ id: parents.id });
  const [address] = await t.db
    .insert(marketAddresses)
    .values({ parentId: parent!.id, schoolId, consigneeName: '王芳', consigneePhone: '13800001234', province: '浙江省', city: '杭州市', area: '滨江区', detail: '江南大道 1 号', isDefault: true })
    .returning({ id: marketAddresses.id });
  return { parentId: parent!.id, addressId: address!.id };
}

/** `count` parents of the school with an address each, written in two statements (the concurrency tests need a hundred). */
export async function parentsWithAddresses(t: TestApp, schoolId: number, count: number): Promise<{ parentId: number; addressId: number }[]> {
  const n = unique();
  const created = await t.db
    .insert(parents)
    .values(Array.from({ length: count }, (_, i) => ({ phoneNum: `157${`${n}${String(i).padStart(3, '0')}`.padStart(8, '0').slice(-8)}`, name: `家长${n}-${i}`, schoolId, enabled: true })))
    .returning({ id: parents.id });
  const addresses = await t.db
    .insert(marketAddresses)
    .values(created.map((parent) => ({ parentId: parent.id, schoolId, consigneeName: '王芳', consigneePhone: '13800001234', province: '浙江省', city: '杭州市', area: '滨江区', detail: '江南大道 1 号', isDefault: true })))
    .returning({ id: marketAddresses.id, parentId: marketAddresses.parentId });
  return addresses.map((address) => ({ parentId: Number(address.parentId), addressId: address.id }));
}

/** A points-shop commodity with the given stock and price in points. */
export async function pointsCommodity(t: TestApp, stock: number, points = 100): Promise<number> {
  const [row] = await t.db.insert(pointsCommodities).values({ title: `水杯${unique()}`, points, stockCount: stock, soldCount: 0, isEnabled: true }).returning({ id: pointsCommodities.id });
  return row!.id;
}

/** An order a parent placed and received (moved there directly: the tests of comments start after receipt). */
export async function receivedOrder(t: TestApp, schoolId: number): Promise<{ orderId: number; commodityId: number; parentId: number }> {
  const commodityId = await releasedCommodity(t, { stock: 5 });
  const { parentId, addressId } = await parentWithAddress(t, schoolId);
  const { orderId } = await placeOrder(t.db, parentId, { lines: [{ commodityId, quantity: 1 }], addressId }, new Date());
  await t.db.update(marketOrders).set({ state: MALL_ORDER_RECEIVED, receivedAt: new Date() }).where(eq(marketOrders.id, orderId));
  return { orderId, commodityId, parentId };
}
