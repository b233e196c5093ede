/**
 * The demo market shop. Staff's catalogue (categories, merchants, goods, releases, ads, points goods,
 * coupons) is set up as the console would; everything parents do — addresses, claimed coupons,
 * orders placed, paid, shipped, received, completed or left unpaid, comments, points earned and spent
 * — goes through the mall's services as the app channel calls them, so every mall page shows rows
 * those flows made and the ledger holds (merchants' shares posted with each payment).
 */
import {
  COUPON_TARGET_ALL,
  COUPON_TARGET_SCHOOLS,
  MALL_ORDER_PAID,
  MALL_ORDER_SHIPPED,
  MARKET_CAROUSEL_AD,
  MARKET_CAROUSEL_MALL,
  MarketOrder,
  POSTER_AUDIENCE_ALL,
  POSTER_AUDIENCE_SCHOOLS,
  formatBusinessDate,
} from '@campus/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { applyForLineRefund } from '../app-channel/mall.js';
import { appParentOf } from '../app-channel/sessions.js';
import type { Database, Transaction } from '../db/client.js';
import { DemoPaymentProvider, type PaymentProviders } from '../finance/providers/index.js';
import { pointsBalance } from '../mall/points.js';
import { appStandIn } from '../resources/engine/context.js';
import { familyTable } from '../db/schema/family-tables.js';
import { parents } from '../db/schema/index.js';
import {
  couponSchools,
  coupons,
  marketAddresses,
  marketCarouselAdSchools,
  marketCategories,
  marketCommodities,
  marketCommodityReleases,
  marketMerchants,
  marketOrders,
  marketReleaseSchools,
  pointsCommodities,
} from '../db/schema/index.js';
import { commentOnOrder, saveAddress } from '../mall/catalog.js';
import { claimCoupon } from '../mall/coupons.js';
import { cancelOrder, closeUnpaidOrders, completeReceivedOrders, confirmReceipt, payOrder, placeOrder, settleOrderPayment } from '../mall/orders.js';
import { placePointsOrder } from '../mall/points-shop.js';
import { updateRecords } from '../resources/engine/services.js';
import { writeStateHistory } from '../resources/engine/workflow.js';

const DAY = 86_400_000;
const dayFrom = (now: Date, days: number) => formatBusinessDate(new Date(now.getTime() + days * DAY));

const CATEGORIES: [string, string[]][] = [
  ['学习用品', ['文具', '绘本']],
  ['生活用品', ['水杯餐具', '服饰']],
  ['校园服务', []],
];

/** [title, subtitle, category, merchant index, price (fen), stock] */
const COMMODITIES: [string, string, string, number, number, number][] = [
  ['儿童护眼台灯', 'LED 无频闪，三档调光', '学习用品', 0, 12_900, 80],
  ['彩色铅笔 36 色', '可水溶，附卷笔刀', '文具', 0, 3_990, 200],
  ['恐龙百科绘本', '精装 12 册', '绘本', 1, 15_800, 60],
  ['儿童保温水杯', '316 不锈钢，500ml', '水杯餐具', 1, 8_900, 120],
  ['园服运动套装', '纯棉，春秋款', '服饰', 0, 16_800, 90],
  ['午睡被三件套', '可机洗', '生活用品', 1, 19_900, 40],
];

const MERCHANTS = [
  { name: '杭州童悦文化用品有限公司', contactName: '陈经理', contactPhone: '0571-86001234', settlementBank: '中国建设银行杭州分行', settlementAccount: '6217 0012 3456 7890', commissionPercent: 12 },
  { name: '宁波优宝母婴用品有限公司', contactName: '刘经理', contactPhone: '13905740088', settlementBank: '中国工商银行宁波分行', settlementAccount: '6222 0239 8765 4321', commissionPercent: 8 },
];

const CONSIGNEES = ['王芳', '李强', '张敏', '刘洋', '陈静', '杨帆', '赵磊', '黄丽'];
const COMMENTS: [number, string][] = [
  [5, '质量很好，孩子很喜欢'],
  [4, '物流很快，包装完好'],
  [5, '和描述一致，会回购'],
  [3, '还行，颜色比图片浅一点'],
];

/** Seeds the catalogue and plays the parents of the first demo schools of each agent. */
export async function seedDemoMall(tx: Transaction, demoSchools: { id: number; agentId: number; province?: string | null }[], operatorId: number, now: Date): Promise<void> {
  const categoryIds = new Map<string, number>();
  for (const [order, [name, children]] of CATEGORIES.entries()) {
    const [parent] = await tx.insert(marketCategories).values({ name, sortOrder: order, enabled: true }).returning({ id: marketCategories.id });
    categoryIds.set(name, parent!.id);
    for (const [childOrder, child] of children.entries()) {
      const [row] = await tx.insert(marketCategories).values({ name: child, parentId: parent!.id, sortOrder: childOrder, enabled: true }).returning({ id: marketCategories.id });
      categoryIds.set(child, row!.id);
    }
  }
  const merchantIds = (await tx.insert(marketMerchants).values(MERCHANTS.map((m) => ({ ...m, enabled: true }))).returning({ id: marketMerchants.id })).map((m) => m.id);
  const commodityIds: number[] = [];
  for (const [title, subtitle, category, merchant, unitPrice, stockCount] of COMMODITIES) {
    const [row] = await tx
      .insert(marketCommodities)
      .values({ title, subtitle, categoryId: categoryIds.get(category)!, merchantId: merchantIds[merchant]!, unitPrice, stockCount, soldCount: 0, isEnabled: true, detail: `<p>${title}：${subtitle}。</p>` })
      .returning({ id: marketCommodities.id });
    commodityIds.push(row!.id);
  }
  // All but the last are offered to every school; the last only to the first two schools.
  const start = dayFrom(now, -60);
  const end = dayFrom(now, 120);
  for (const [index, commodityId] of commodityIds.entries()) {
    const isChosen = index === commodityIds.length - 1;
    const [release] = await tx
      .insert(marketCommodityReleases)
      .values({ title: `${COMMODITIES[index]![0]} · ${isChosen ? '指定学校' : '全部学校'}`, commodityId, startDate: start, endDate: end, audience: isChosen ? POSTER_AUDIENCE_SCHOOLS : POSTER_AUDIENCE_ALL, sort: index, enabled: true })
      .returning({ id: marketCommodityReleases.id });
    if (isChosen) await tx.insert(marketReleaseSchools).values(demoSchools.slice(0, 2).map((school) => ({ releaseId: release!.id, schoolId: school.id })));
  }
  const appAds = familyTable('MarketAppAd');
  await tx.insert(appAds).values([
    { image: '/demo/ads/app-home.png', title: '开学季文具特惠', link: '/mall', position: 1, startDate: start, endDate: end, audience: POSTER_AUDIENCE_ALL, sort: 0, enabled: true },
    { image: '/demo/ads/app-mine.png', title: '葱米兑好礼', link: '/points', position: 3, startDate: start, endDate: end, audience: POSTER_AUDIENCE_ALL, sort: 1, enabled: true },
  ]);
  const carousel = familyTable('MarketCarouselAd');
  const ads = await tx
    .insert(carousel)
    .values([
      { kind: MARKET_CAROUSEL_MALL, image: '/demo/ads/mall-1.png', title: '绘本节满减', link: '/mall/category', position: 2, startDate: start, endDate: end, audience: POSTER_AUDIENCE_ALL, sort: 0, enabled: true },
      { kind: MARKET_CAROUSEL_AD, image: '/demo/ads/ad-1.png', title: '护眼台灯新品', link: '/mall', position: 1, startDate: start, endDate: end, audience: POSTER_AUDIENCE_SCHOOLS, sort: 0, enabled: true },
    ])
    .returning({ id: carousel.id });
  await tx.insert(marketCarouselAdSchools).values({ adId: Number(ads[1]!.id), schoolId: demoSchools[0]!.id });
  const pointsGoods = (
    await tx
      .insert(pointsCommodities)
      .values([
        { title: '卡通贴纸一套', points: 10, stockCount: 500, soldCount: 0, isEnabled: true, detail: '40 枚' },
        { title: '儿童牙刷', points: 10, stockCount: 300, soldCount: 0, isEnabled: true },
        { title: '绘本借阅卡（月）', points: 200, stockCount: 50, soldCount: 0, isEnabled: true },
      ])
      .returning({ id: pointsCommodities.id })
  ).map((row) => row.id);
  const [everyone] = await tx
    .insert(coupons)
    .values({ title: '新用户满50减10', state: 1, scope: 1, kind: 1, amountOff: 1_000, threshold: 5_000, total: 500, issued: 0, perParentLimit: 1, startDate: start, endDate: end, targetKind: COUPON_TARGET_ALL })
    .returning({ id: coupons.id });
  const [schoolsOnly] = await tx
    .insert(coupons)
    .values({ title: '文具9折券', state: 1, scope: 2, kind: 2, discountPercent: 90, threshold: 0, total: 200, issued: 0, perParentLimit: 2, startDate: start, endDate: end, targetKind: COUPON_TARGET_SCHOOLS })
    .returning({ id: coupons.id });
  await tx.insert(couponSchools).values(demoSchools.slice(0, 3).map((school) => ({ couponId: schoolsOnly!.id, schoolId: school.id })));
  await tx.execute(sql`insert into coupon_categories (coupon_id, category_id) values (${schoolsOnly!.id}, ${categoryIds.get('文具')!}), (${schoolsOnly!.id}, ${categoryIds.get('学习用品')!})`);

  // Parents of two schools of each agent play the app.
  const byAgent = new Map<number, number[]>();
  for (const school of demoSchools) byAgent.set(school.agentId, [...(byAgent.get(school.agentId) ?? []), school.id]);
  const playedSchools = [...byAgent.values()].flatMap((ids) => ids.slice(0, 2));
  const players = await tx.select({ id: parents.id, schoolId: parents.schoolId }).from(parents).where(inArray(parents.schoolId, playedSchools)).orderBy(parents.id);
  const perSchool = new Map<number, number[]>();
  for (const parent of players) perSchool.set(Number(parent.schoolId), [...(perSchool.get(Number(parent.schoolId)) ?? []), parent.id].slice(0, 4));
  let step = 0;
  for (const parentIds of perSchool.values()) {
    for (const parentId of parentIds) {
      step += 1;
      const at = (daysAgo: number, minutes = 0) => new Date(now.getTime() - daysAgo * DAY + minutes * 60_000);
      const { id: addressId } = await saveAddress(
        tx,
        parentId,
        null,
        { consigneeName: CONSIGNEES[step % CONSIGNEES.length]!, consigneePhone: `1380000${String(1000 + step).slice(-4)}`, province: '浙江省', city: '杭州市', area: '西湖区', detail: `文三路 ${100 + step} 号`, isDefault: true },
        at(20),
      );
      const grant = await claimCoupon(tx, parentId, everyone!.id, at(15)).catch(() => null);
      const first = commodityIds[step % 4]!;
      const second = commodityIds[(step + 1) % 4]!;
      // An order that went all the way: paid, shipped, received 8 days ago (completed by the job below), commented.
      const done = await placeOrder(tx, parentId, { lines: [{ commodityId: first, quantity: 1 }, { commodityId: second, quantity: 2 }], addressId, couponGrantId: grant?.grantId ?? null }, at(12));
      await settleOrderPayment(tx, done.orderId, { channel: 'wechat', tradeNo: `DEMO-MALL-${done.orderNo}`, paidAt: at(12, 2) });
      await shipAsStaff(tx, done.orderId, operatorId, step, at(11));
      await confirmReceipt(tx, parentId, done.orderId, at(8));
      const [score, content] = COMMENTS[step % COMMENTS.length]!;
      await commentOnOrder(tx, parentId, { orderId: done.orderId, commodityId: first, score, content }, at(8, 30));
      // Later orders in each state staff act on: shipped, paid (to ship), unpaid, cancelled.
      const kind = step % 4;
      // Unpaid: one placed minutes ago waits; one placed yesterday is closed by the job below.
      const placedAt = kind !== 2 ? at(2) : step % 8 === 2 ? at(1) : at(0, -5);
      const later = await placeOrder(tx, parentId, { lines: [{ commodityId: commodityIds[(step + 2) % 5]!, quantity: 1 }], addressId }, placedAt);
      if (kind === 3) await cancelOrder(tx, parentId, later.orderId, at(2, 10));
      else if (kind !== 2) {
        await settleOrderPayment(tx, later.orderId, { channel: 'wechat', tradeNo: `DEMO-MALL-${later.orderNo}`, paidAt: at(2, 3) });
        if (kind === 0) await shipAsStaff(tx, later.orderId, operatorId, step + 100, at(1));
      }
    }
  }
  // The jobs as they run: orders unpaid for 30 minutes close (stock, coupon and points back), orders received 7 days ago complete (points earned).
  await closeUnpaidOrders(tx, now);
  await completeReceivedOrders(tx, now);
  // In each school, two parents who earned points spend them in the points shop.
  for (const [index, parentId] of [...perSchool.values()].flatMap((ids) => ids.slice(0, 2)).entries()) {
    const [address] = await tx.select({ id: marketAddresses.id }).from(marketAddresses).where(eq(marketAddresses.parentId, parentId)).limit(1);
    if (address) await placePointsOrder(tx, parentId, { commodityId: pointsGoods[index % 2]!, quantity: 1, addressId: address.id }, now);
  }
  // The third parent of each school spends its points on an order paid with the demo provider (as
  // PayMallOrder pays), then applies for a refund of its line (ApplyMallRefund): refundManage lists it.
  const db = tx as unknown as Database;
  const payments = { active: new DemoPaymentProvider(db) } as unknown as PaymentProviders;
  for (const [index, parentId] of [...perSchool.values()].flatMap((ids) => ids.slice(2, 3)).entries()) {
    const [address] = await tx.select({ id: marketAddresses.id }).from(marketAddresses).where(eq(marketAddresses.parentId, parentId)).limit(1);
    const points = await pointsBalance(tx, parentId);
    if (!address || points <= 0) continue;
    const placed = await placeOrder(db, parentId, { lines: [{ commodityId: commodityIds[index % 4]!, quantity: 1 }], addressId: address.id, points }, now);
    await payOrder(db, payments, parentId, placed.orderId, () => now);
    const parent = index % 2 === 0 ? await appParentOf(db, parentId) : null;
    if (parent) await applyForLineRefund(db, appStandIn('the demo seed', { clock: { now: () => now } }), parent, { orderId: placed.orderId, lineNo: 1, reason: '尺寸不合适，申请退款' });
  }
}

/** Staff ship a paid order (the console's Ship transition, with its history), with a demo tracking number. */
async function shipAsStaff(tx: Transaction, orderId: number, operatorId: number, serial: number, at: Date): Promise<void> {
  const [order] = await tx.select({ state: marketOrders.state }).from(marketOrders).where(eq(marketOrders.id, orderId)).for('update');
  if (order?.state !== MALL_ORDER_PAID) return;
  await updateRecords(tx, MarketOrder, [orderId], { values: { state: MALL_ORDER_SHIPPED, carrier: '顺丰速运', trackingNo: `SF${String(1_300_000_000 + serial)}`, shippedAt: at }, now: at });
  await writeStateHistory(tx, { family: MarketOrder.name, rowId: orderId, from: MALL_ORDER_PAID, to: MALL_ORDER_SHIPPED, verb: 'Ship', remark: null, userId: operatorId });
}
