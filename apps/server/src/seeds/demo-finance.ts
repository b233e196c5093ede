/**
 * Demo finance: charge items, a service config per demo school (all but each agent's last one with
 * split rules, so the "unset split rule" badge shows), and four months of parents' payments written
 * through recordPayment, so the ledger and the transaction rollups are the real ones: one per child,
 * so each child's service ends within a year of today.
 */
import type { PaymentChannel } from '@campus/contract';
import { asc, eq, inArray } from 'drizzle-orm';
import { recordPayment } from '../finance/payments.js';
import type { Transaction } from '../db/client.js';
import { appChargeItems, comprehensiveChargeItems, comprehensiveCharges, parentStudents, parents, schoolCharges, serviceConfigSplitRules, serviceConfigs } from '../db/schema/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const CHARGE_ITEMS = [
  { name: '平安校园年卡', unitPrice: 12_000, serviceMonths: 12, remark: '刷脸入园通知、考勤、接送记录' },
  { name: '平安校园半年卡', unitPrice: 6_800, serviceMonths: 6, remark: '同年卡，半年' },
  { name: '平安校园月卡', unitPrice: 1_500, serviceMonths: 1, remark: '按月开通' },
] as const;

/** Mostly WeChat Pay, as in the field; every channel appears. */
const CHANNELS: readonly PaymentChannel[] = ['wechat', 'wechat', 'wechat', 'alipay', 'alipay', 'ccb', 'offline'];

/** Payments per school in each of the demo months (fewer where the school has fewer paying children). */
const PAYMENTS_PER_SCHOOL_MONTH = 6;
const MONTHS = 4;

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** Seeds the finance rows for the demo schools (in demo order, with their agent), paid up to `now`. */
export async function seedDemoFinance(tx: Transaction, demoSchools: { id: number; agentId: number }[], now: Date): Promise<void> {
  const items = await tx.insert(appChargeItems).values(CHARGE_ITEMS.map((item) => ({ ...item, enabled: true }))).returning({ id: appChargeItems.id, unitPrice: appChargeItems.unitPrice });
  const [bundle] = await tx.insert(comprehensiveCharges).values({ name: '平安校园全年套餐', listPrice: 12_000 + 1_500, bundlePrice: 12_800, enabled: true, remark: '年卡加一个月体验' }).returning({ id: comprehensiveCharges.id });
  await tx.insert(comprehensiveChargeItems).values([
    { comprehensiveChargeId: bundle!.id, lineNo: 1, chargeItemId: items[0]!.id, quantity: 1, unitPrice: 12_000, amount: 12_000 },
    { comprehensiveChargeId: bundle!.id, lineNo: 2, chargeItemId: items[2]!.id, quantity: 1, unitPrice: 1_500, amount: 1_500 },
  ]);
  await tx.insert(schoolCharges).values(demoSchools.map((school) => ({ schoolId: school.id, name: '精彩课堂直播', unitPrice: 3_000, serviceMonths: 1, enabled: true })));
  const lastOfAgent = new Set(demoSchools.map((school) => demoSchools.filter((other) => other.agentId === school.agentId).at(-1)!.id));

  for (const [position, school] of demoSchools.entries()) {
    const [config] = await tx
      .insert(serviceConfigs)
      .values({ schoolId: school.id, merchantNo: `M1900${String(school.id).padStart(6, '0')}`, enabled: true, parentCount: 24, mode: 1, tryDays: 7, refundBasePrice: 10_000, offlineUnitPrice: 11_000, discountDays: 0 })
      .returning({ id: serviceConfigs.id });
    if (!lastOfAgent.has(school.id)) {
      // A rule from before the demo payments and a newer one two months ago: both are in force for some payments.
      await tx.insert(serviceConfigSplitRules).values([
        { serviceConfigId: config!.id, lineNo: 1, effectiveFrom: isoDay(new Date(now.getTime() - 200 * DAY_MS)), companyPercent: 50, agentPercent: 30, schoolPercent: 20 },
        { serviceConfigId: config!.id, lineNo: 2, effectiveFrom: isoDay(new Date(now.getTime() - 60 * DAY_MS)), companyPercent: 45, agentPercent: 35, schoolPercent: 20 },
      ]);
    }

    const links = await tx
      .select({ parentId: parentStudents.parentId, studentId: parentStudents.studentId })
      .from(parentStudents)
      .where(inArray(parentStudents.parentId, tx.select({ id: parents.id }).from(parents).where(eq(parents.schoolId, school.id))))
      .orderBy(asc(parentStudents.parentId), asc(parentStudents.studentId));
    // One payment per child, as families pay once a year: a child paying again would stack its service
    // years ahead (a payment extends from the later of today and the current end).
    const payers = [...new Map(links.map((link) => [link.studentId, link])).values()];
    for (let n = 0; n < Math.min(MONTHS * PAYMENTS_PER_SCHOOL_MONTH, payers.length); n += 1) {
      const payer = payers[(n + position) % payers.length]!;
      const itemIndex = n % 5 === 0 ? 1 : n % 7 === 0 ? 2 : 0;
      const item = items[itemIndex]!;
      // Spread over the last four months, between 08:00 and 21:00 Shanghai time, never in the future.
      const daysAgo = Math.floor((n * 120) / (MONTHS * PAYMENTS_PER_SCHOOL_MONTH)) + (position % 3);
      const paidAt = new Date(now.getTime() - daysAgo * DAY_MS - ((n * 37 + position * 11) % 780) * 60_000 - 60_000);
      await recordPayment(tx, {
        schoolId: school.id,
        amount: Number(item.unitPrice),
        channel: CHANNELS[(n + position) % CHANNELS.length]!,
        tradeNo: `DEMO${String(school.id).padStart(4, '0')}${String(n).padStart(4, '0')}`,
        paidAt,
        parentId: payer.parentId,
        studentId: payer.studentId,
        chargeItemId: item.id,
      });
    }
  }
}
