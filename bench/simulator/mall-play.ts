/**
 * One round of the mall as a parent plays it in simulate:parents (docs/parent-app.md "The mall"):
 * browse what the school is offered, keep an address, claim what coupons it may, order with a coupon
 * and points, pay, confirm and comment on what staff shipped, now and then cancel an unpaid order or
 * apply for a refund of a line, and spend 葱米 in the points shop. The operator ships paid orders
 * between rounds (shipPaidOrders), as staff would on mallOrderManage.
 */
import { MALL_ORDER_PAID, MALL_ORDER_RECEIVED, MALL_ORDER_SHIPPED } from '@campus/contract';
import type { ConsoleClient } from './console-client.js';
import type { ParentApp } from './parent-app.js';
import type { Random } from './random.js';

/** Runs one call: counted when it answers; an expected refusal (by HTTP status) counted as such; any other reported. */
export type Attempt = <T>(what: string, call: () => Promise<T>, expected?: number[]) => Promise<T | undefined>;

const CONSIGNEES = ['王芳', '李强', '张敏', '刘洋', '陈静'];
const COMMENTS: [number, string][] = [
  [5, '质量很好，孩子很喜欢'],
  [4, '物流很快，包装完好'],
  [3, '还行，颜色比图片浅一点'],
];

export async function playMall(app: ParentApp, random: Random, attempt: Attempt, chances: { refund: number; cancel: number }): Promise<void> {
  const page = await attempt('browsed the mall', () => app.commodities());
  const onSale = page?.rows.filter((row) => row.stockCount > 0) ?? [];
  if (onSale.length > 0) await attempt('opened a commodity', () => app.commodity(random.pick(onSale).id));

  let addresses = (await attempt('read addresses', () => app.addresses())) ?? [];
  if (addresses.length === 0) {
    const n = random.int(1, 999);
    await attempt('added an address', () =>
      app.saveAddress({ consigneeName: random.pick(CONSIGNEES), consigneePhone: `1380000${String(1000 + n).slice(-4)}`, province: '浙江省', city: '杭州市', area: '西湖区', detail: `文三路 ${n} 号`, isDefault: true }),
    );
    addresses = (await attempt('read addresses', () => app.addresses())) ?? [];
  }
  const address = addresses.find((row) => row.isDefault) ?? addresses[0];

  // Another parent may take the last coupon or the parent's limit may be reached meanwhile: 409.
  for (const coupon of (await attempt('listed claimable coupons', () => app.claimable())) ?? []) await attempt('claimed a coupon', () => app.claim(coupon.couponId), [409]);

  // What staff shipped: confirm, and comment on each line.
  const orders = (await attempt('read my orders', () => app.orders()))?.rows ?? [];
  for (const order of orders.filter((row) => row.state === MALL_ORDER_SHIPPED)) {
    const confirmed = await attempt('confirmed receipt', () => app.confirmReceipt(order.id));
    if (confirmed === undefined) continue;
    for (const line of order.lines) {
      const [score, content] = random.pick(COMMENTS);
      await attempt('commented', () => app.comment(order.id, line.commodityId, score, content), [409]);
    }
  }
  // A paid or received line now and then goes back (an application refundManage lists).
  const refundable = orders.filter((row) => (row.state === MALL_ORDER_PAID || row.state === MALL_ORDER_RECEIVED) && row.lines.some((line) => line.paidAmount > line.refundedAmount));
  if (refundable.length > 0 && random.chance(chances.refund)) {
    const order = random.pick(refundable);
    // Only one refund of a payment is in flight at a time: a second application may be refused (400).
    await attempt('applied for a refund of a line', () => app.applyMallRefund(order.id, order.lines[0]!.lineNo, random.pick(['尺寸不合适', '质量问题', '不想要了'])), [400]);
  }

  if (!address || onSale.length === 0) return;
  const chosen = random.pick(onSale);
  const lines = [{ commodityId: chosen.id, quantity: random.int(1, 2) }];
  const total = chosen.unitPrice * lines[0]!.quantity;
  const grant = ((await attempt('read my coupons', () => app.coupons())) ?? []).find((row) => row.isUsable && row.threshold <= total);
  const balance = (await attempt('read my points', () => app.points()))?.balance ?? 0;
  const points = Math.min(balance, Math.floor(total / 10));
  // The coupon's scope may not hold the commodity, stock may run out between the read and the order: 400.
  let placed = await attempt('placed an order', () => app.placeOrder({ lines, addressId: address.id, ...(grant ? { couponGrantId: grant.grantId } : {}), ...(points > 0 ? { points } : {}) }), [400]);
  if (!placed && grant) placed = await attempt('placed an order', () => app.placeOrder({ lines, addressId: address.id }), [400]);
  if (!placed) return;
  if (random.chance(chances.cancel)) {
    await attempt('cancelled an unpaid order', () => app.cancelOrder(placed.orderId));
  } else {
    const paid = await attempt('paid an order', () => app.payOrder(placed.orderId));
    if (paid?.outcome === 'pending') await attempt('order waiting for WeChat Pay', async () => paid);
  }

  const shop = (await attempt('read the points shop', () => app.pointsShop())) ?? [];
  const left = (await attempt('read my points', () => app.points()))?.balance ?? 0;
  const affordable = shop.filter((row) => row.points <= left && row.stockCount > 0);
  // Stock may go between the read and the order: 400.
  if (affordable.length > 0) await attempt('ordered from the points shop', () => app.placePointsOrder(random.pick(affordable).id, address.id), [400]);
}

/** Staff ship every paid order on mallOrderManage (the console's Ship, with a carrier and tracking number). */
export async function shipPaidOrders(operator: ConsoleClient, attempt: Attempt, serial: { next: number }): Promise<void> {
  const paid = await operator.searchAll<{ id: number; version: number }>('MarketOrder', 'mallOrderManage', { state: MALL_ORDER_PAID }, 200);
  for (const order of paid) {
    serial.next += 1;
    // A parent may be applying for a refund at that moment; an order changed meanwhile answers 409.
    await attempt('staff shipped an order', () => operator.call('/api/MarketOrder/Ship?view=mallOrderManage', { id: order.id, version: order.version, carrier: '顺丰速运', trackingNo: `SF${1_400_000_000 + serial.next}` }), [409]);
  }
}
