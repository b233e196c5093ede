/**
 * Payments and their ledger postings. Every payment is written through `recordPayment` (the demo
 * seed, the provider notifications) and every succeeded refund through `postRefundReversal`, so the
 * ledger and the transaction rollups always agree with the payments.
 */
import { FUND_ACCOUNT_AGENT, FUND_ACCOUNT_COMPANY, FUND_ACCOUNT_SCHOOL, FUND_ENTRY_PAYMENT, formatBusinessDate, formatBusinessDateTime, type PaymentChannel } from '@campus/contract';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { badRequest, msg, notFound } from '../platform/errors.js';
import type { Executor } from '../db/client.js';
import { ensureAccount, legsOfPayment, postEntries, reversalEntries, reversalOf, splitAmount, type EntryInput } from './ledger.js';
import { splitRuleInForce } from './split-rules.js';
import { extendServiceForPayment, servicePeriodFor, shortenServiceForRefund } from '../parents/service.js';

/** A payment as the providers and the apps report it. */
export interface PaymentInput {
  schoolId: number;
  amount: number;
  channel: PaymentChannel;
  /** The provider's trade number: one payment per channel and number (a retried notification is the same payment). */
  tradeNo: string;
  paidAt: Date;
  /** Ours; generated when absent. */
  outTradeNo?: string;
  parentId?: number | null;
  studentId?: number | null;
  chargeItemId?: number | null;
  /** The service period bought; by default from the paid day for the charge item's months. */
  serviceFrom?: string | null;
  serviceTo?: string | null;
}

/** A stored payment, as the ledger and the refunds read it. */
export interface PaymentRow {
  id: number;
  outTradeNo: string;
  schoolId: number;
  agentId: number | null;
  amount: number;
  refundedAmount: number;
  channel: PaymentChannel;
  paidAt: Date;
  companyPercent: number;
  agentPercent: number;
  schoolPercent: number;
}

type Rows = { rows: Record<string, unknown>[] };

const PAYMENT_COLUMNS = sql`id, out_trade_no as "outTradeNo", school_id as "schoolId", agent_id as "agentId", amount, refunded_amount as "refundedAmount",
  channel, paid_at as "paidAt", company_percent as "companyPercent", agent_percent as "agentPercent", school_percent as "schoolPercent"`;

function toPayment(row: Record<string, unknown>): PaymentRow {
  return {
    id: Number(row.id),
    outTradeNo: String(row.outTradeNo),
    schoolId: Number(row.schoolId),
    agentId: row.agentId === null ? null : Number(row.agentId),
    amount: Number(row.amount),
    refundedAmount: Number(row.refundedAmount),
    channel: row.channel as PaymentChannel,
    paidAt: row.paidAt instanceof Date ? row.paidAt : new Date(String(row.paidAt)),
    companyPercent: Number(row.companyPercent),
    agentPercent: Number(row.agentPercent),
    schoolPercent: Number(row.schoolPercent),
  };
}

/** Our order number: the paid time (China time) to the second and random digits, unique in practice and by constraint. */
export function newOutTradeNo(paidAt: Date): string {
  const stamp = formatBusinessDateTime(paidAt, { seconds: true }).replace(/\D/g, '');
  return `P${stamp}${randomBytes(5).readUIntBE(0, 5).toString().padStart(13, '0')}`;
}

/** The last day of the period of `months` months starting on `from` ('YYYY-MM-DD'). */
export function serviceEnd(from: string, months: number): string {
  const [year, month, day] = from.split('-').map(Number) as [number, number, number];
  const end = new Date(Date.UTC(year, month - 1 + months, day));
  end.setUTCDate(end.getUTCDate() - 1);
  return end.toISOString().slice(0, 10);
}

/** One payment by id, locked for the refund or reversal about to change it. */
export async function lockPayment(db: Executor, paymentId: number): Promise<PaymentRow> {
  const found = (await db.execute(sql`select ${PAYMENT_COLUMNS} from payment_records where id = ${paymentId} for update`)) as unknown as Rows;
  if (!found.rows[0]) throw notFound(msg('finance.paymentNotFound'));
  return toPayment(found.rows[0]);
}

/**
 * Stores a payment with the split rule in force on its paid day and posts its legs (company, agent,
 * school) in the caller's transaction. A payment already stored under the same channel and trade
 * number is answered as it is (`isNew: false`) and posts nothing again.
 */
export async function recordPayment(tx: Executor, input: PaymentInput): Promise<{ payment: PaymentRow; isNew: boolean }> {
  const split = await splitRuleInForce(tx, input.schoolId, formatBusinessDate(input.paidAt));
  const school = (await tx.execute(sql`select agent_id as "agentId" from schools where id = ${input.schoolId}`)) as unknown as Rows;
  if (!school.rows[0]) throw badRequest([{ path: 'schoolId', ...msg('validation.referenceNotFound', { field: { zh: '学校', en: 'School' } }) }]);
  const agentId = school.rows[0].agentId === null ? null : Number(school.rows[0].agentId);
  let { serviceFrom = null, serviceTo = null } = input;
  // A child's payment for a charge item extends its safe-campus service from the later of the paid day
  // and its current end (docs/decisions.md "The safe-campus service"); the child's service stays locked
  // until this transaction ends, so two payments at once extend one after the other.
  const extendsService = Boolean(input.chargeItemId && input.studentId && !serviceFrom);
  if (input.chargeItemId && !serviceFrom) {
    const item = (await tx.execute(sql`select service_months as months from app_charge_items where id = ${input.chargeItemId}`)) as unknown as Rows;
    serviceFrom = formatBusinessDate(input.paidAt);
    if (item.rows[0]) {
      const months = Number(item.rows[0].months);
      const period = extendsService ? await servicePeriodFor(tx, input.studentId!, serviceFrom, months, serviceEnd) : undefined;
      serviceFrom = period?.from ?? serviceFrom;
      serviceTo = period?.to ?? serviceEnd(serviceFrom, months);
    }
  }
  const inserted = (await tx.execute(sql`
    insert into payment_records (paid_at, out_trade_no, trade_no, channel, school_id, agent_id, parent_id, student_id, charge_item_id,
      amount, service_from, service_to, company_percent, agent_percent, school_percent)
    values (${input.paidAt.toISOString()}::timestamptz, ${input.outTradeNo ?? newOutTradeNo(input.paidAt)}, ${input.tradeNo}, ${input.channel},
      ${input.schoolId}, ${agentId}, ${input.parentId ?? null}, ${input.studentId ?? null}, ${input.chargeItemId ?? null}, ${input.amount},
      ${serviceFrom}, ${serviceTo}, ${split.companyPercent}, ${split.agentPercent}, ${split.schoolPercent})
    on conflict (channel, trade_no) do nothing
    returning ${PAYMENT_COLUMNS}`)) as unknown as Rows;
  if (!inserted.rows[0]) {
    const existing = (await tx.execute(sql`select ${PAYMENT_COLUMNS} from payment_records where channel = ${input.channel} and trade_no = ${input.tradeNo}`)) as unknown as Rows;
    return { payment: toPayment(existing.rows[0]!), isNew: false };
  }
  const payment = toPayment(inserted.rows[0]);
  await postEntries(tx, await paymentLegs(tx, payment));
  if (extendsService && serviceTo) await extendServiceForPayment(tx, input.studentId!, serviceTo, payment.outTradeNo);
  return { payment, isNew: true };
}

/** The entries of a payment's split; a share of 0 posts no leg (a refund's remainder then comes from the largest leg). */
async function paymentLegs(tx: Executor, payment: PaymentRow): Promise<EntryInput[]> {
  const shares = splitAmount(payment.amount, payment, payment.agentId !== null);
  const common = { kind: FUND_ENTRY_PAYMENT, postedAt: payment.paidAt, paymentId: payment.id };
  const legs: EntryInput[] = [{ ...common, accountId: await ensureAccount(tx, FUND_ACCOUNT_COMPANY), accountType: FUND_ACCOUNT_COMPANY, schoolId: null, amount: shares.company }];
  if (shares.agent > 0) legs.push({ ...common, accountId: await ensureAccount(tx, FUND_ACCOUNT_AGENT, payment.agentId), accountType: FUND_ACCOUNT_AGENT, schoolId: null, amount: shares.agent });
  if (shares.school > 0) {
    legs.push({ ...common, accountId: await ensureAccount(tx, FUND_ACCOUNT_SCHOOL, payment.schoolId), accountType: FUND_ACCOUNT_SCHOOL, schoolId: payment.schoolId, amount: shares.school });
  }
  return legs;
}

/**
 * Reverses a succeeded refund's share of a payment's split, in proportion (same rounding: the
 * remainder from the company), and adds it to the payment's refunded amount, in the caller's
 * transaction. Refuses (field `refundAmount`) a refund beyond what is left of the payment.
 */
export async function postRefundReversal(tx: Executor, payment: Pick<PaymentRow, 'id'>, refundId: number, refundAmount: number, postedAt: Date = new Date()): Promise<void> {
  const locked = await lockPayment(tx, payment.id);
  const refundable = locked.amount - locked.refundedAmount;
  if (!Number.isSafeInteger(refundAmount) || refundAmount <= 0 || refundAmount > refundable) {
    throw badRequest([{ path: 'refundAmount', ...msg('finance.refundExceedsPayment', { refundable }) }]);
  }
  const legs = await legsOfPayment(tx, locked.id);
  const taken = reversalOf(legs, locked.amount, locked.refundedAmount, refundAmount);
  await postEntries(tx, reversalEntries(legs, taken, { paymentId: locked.id, refundId, postedAt }));
  await tx.execute(sql`update payment_records set refunded_amount = refunded_amount + ${refundAmount} where id = ${locked.id}`);
  await shortenServiceForRefund(tx, locked.id, refundAmount);
}
