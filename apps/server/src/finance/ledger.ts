/**
 * The agent funds ledger: accounts (the company, each agent, each school) and immutable entries.
 * Balances are the database's: a trigger adds each posted entry to its account in the posting
 * transaction and refuses any other change (drizzle/0015_finance-ledger.sql).
 */
import { FUND_ACCOUNT_AGENT, FUND_ACCOUNT_COMPANY, FUND_ACCOUNT_MERCHANT, FUND_ACCOUNT_SCHOOL, FUND_ENTRY_REFUND } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';

export type FundAccountType = typeof FUND_ACCOUNT_COMPANY | typeof FUND_ACCOUNT_AGENT | typeof FUND_ACCOUNT_SCHOOL | typeof FUND_ACCOUNT_MERCHANT;

/** The three shares of a payment, in whole percent summing to 100. */
export interface SplitPercents {
  companyPercent: number;
  agentPercent: number;
  schoolPercent: number;
}

/** One entry about to be posted. */
export interface EntryInput {
  accountId: number;
  accountType: FundAccountType;
  /** The account's school (null for the company's and agents' accounts): the entry's data scope. */
  schoolId: number | null;
  kind: number;
  amount: number;
  postedAt: Date;
  paymentId?: number | null;
  refundId?: number | null;
  reason?: string | null;
  createdBy?: number | null;
}

/** A payment's leg as posted: the account and the amount it received. */
export interface PostedLeg {
  accountId: number;
  accountType: FundAccountType;
  schoolId: number | null;
  amount: number;
}

/** The split every school without a rule in force uses: everything stays with the company. */
export const COMPANY_ONLY_SPLIT: SplitPercents = { companyPercent: 100, agentPercent: 0, schoolPercent: 0 };

/** `floor(value × numerator / denominator)` without losing precision (fen × fen exceeds 2^53). */
function floorShare(value: number, numerator: number, denominator: number): number {
  return Number((BigInt(value) * BigInt(numerator)) / BigInt(denominator));
}

/**
 * Divides an amount by a split: the agent's and the school's shares are floored to the fen and the
 * remainder is the company's, so the three always sum to the amount. Without an agent its share is
 * the company's too.
 */
export function splitAmount(amount: number, split: SplitPercents, hasAgent: boolean): { company: number; agent: number; school: number } {
  const agent = hasAgent ? floorShare(amount, split.agentPercent, 100) : 0;
  const school = floorShare(amount, split.schoolPercent, 100);
  return { company: amount - agent - school, agent, school };
}

/**
 * What a refund takes back from each leg: proportional to the refunded total, each leg but one
 * floored on the cumulative total (so partial refunds that add up to the payment reverse exactly its
 * legs), the remainder from the company's leg. A payment that gave the company nothing has no company
 * leg, and its largest leg takes the remainder instead: it never exceeds that leg's proportional
 * share by more than the fen the others' floors left, so no account gives back more than it received.
 * Answers amounts as positive fen to subtract.
 */
export function reversalOf(legs: readonly PostedLeg[], paymentAmount: number, refundedBefore: number, refundAmount: number): Map<number, number> {
  const largest = legs.reduce<PostedLeg | undefined>((kept, leg) => (kept && kept.amount >= leg.amount ? kept : leg), undefined);
  const remainderLeg = legs.find((leg) => leg.accountType === FUND_ACCOUNT_COMPANY) ?? largest;
  if (!remainderLeg) throw new Error('a payment without legs');
  const after = refundedBefore + refundAmount;
  const taken = new Map<number, number>();
  let others = 0;
  for (const leg of legs) {
    if (leg === remainderLeg) continue;
    const share = floorShare(leg.amount, after, paymentAmount) - floorShare(leg.amount, refundedBefore, paymentAmount);
    taken.set(leg.accountId, (taken.get(leg.accountId) ?? 0) + share);
    others += share;
  }
  taken.set(remainderLeg.accountId, (taken.get(remainderLeg.accountId) ?? 0) + refundAmount - others);
  return taken;
}

/** The key that makes an account unique: one company account, one per agent, one per school, one per mall merchant. */
export function accountKeyOf(type: FundAccountType, ownerId: number | null): string {
  if (type === FUND_ACCOUNT_COMPANY) return 'company';
  const owner = type === FUND_ACCOUNT_AGENT ? 'agent' : type === FUND_ACCOUNT_MERCHANT ? 'merchant' : 'school';
  return `${owner}:${ownerId}`;
}

/**
 * The id of the company's, an agent's, a school's or a mall merchant's account, opening it on first
 * use (named after the agent, the school or the merchant). Concurrent first uses open it once: the account key is unique.
 */
export async function ensureAccount(db: Executor, type: FundAccountType, ownerId: number | null = null): Promise<number> {
  const key = accountKeyOf(type, ownerId);
  const agentId = type === FUND_ACCOUNT_AGENT ? ownerId : null;
  const schoolId = type === FUND_ACCOUNT_SCHOOL ? ownerId : null;
  const name =
    type === FUND_ACCOUNT_COMPANY
      ? sql`'公司账户'`
      : type === FUND_ACCOUNT_AGENT
        ? sql`(select name from users where id = ${agentId})`
        : type === FUND_ACCOUNT_MERCHANT
          ? sql`(select name from market_merchants where id = ${ownerId})`
          : sql`(select school_name from schools where id = ${schoolId})`;
  await db.execute(sql`
    insert into agent_fund_accounts (name, account_type, agent_id, school_id, account_key)
    values (coalesce(${name}, ${key}), ${type}, ${agentId}, ${schoolId}, ${key})
    on conflict (account_key) do nothing`);
  const found = (await db.execute(sql`select id from agent_fund_accounts where account_key = ${key}`)) as unknown as { rows: { id: number }[] };
  return Number(found.rows[0]!.id);
}

/** Posts entries in one statement (the balance trigger then runs once for all of them). */
export async function postEntries(db: Executor, entries: readonly EntryInput[]): Promise<number[]> {
  const posted = entries.filter((entry) => entry.amount !== 0);
  if (posted.length === 0) return [];
  const values = sql.join(
    posted.map(
      (e) =>
        sql`(${e.accountId}, ${e.accountType}, ${e.schoolId}, ${e.kind}, ${e.amount}, ${e.postedAt.toISOString()}::timestamptz, ${e.paymentId ?? null}::int, ${e.refundId ?? null}::int, ${e.reason ?? null}, ${e.createdBy ?? null}::int)`,
    ),
    sql`, `,
  );
  const result = (await db.execute(sql`
    insert into agent_fund_entries (account_id, account_type, school_id, kind, amount, posted_at, payment_id, refund_id, reason, created_by)
    values ${values} returning id`)) as unknown as { rows: { id: number }[] };
  return result.rows.map((row) => Number(row.id));
}

/** The legs a payment posted, by account (its payment entries, not its reversals). */
export async function legsOfPayment(db: Executor, paymentId: number): Promise<PostedLeg[]> {
  const result = (await db.execute(sql`
    select account_id as "accountId", account_type as "accountType", school_id as "schoolId", sum(amount)::bigint as amount
    from agent_fund_entries where payment_id = ${paymentId} and kind = 1
    group by account_id, account_type, school_id order by account_id`)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows.map((row) => ({
    accountId: Number(row.accountId),
    accountType: Number(row.accountType) as FundAccountType,
    schoolId: row.schoolId === null ? null : Number(row.schoolId),
    amount: Number(row.amount),
  }));
}

/** The refund entries `reversalOf` answers, ready to post (negative amounts). */
export function reversalEntries(legs: readonly PostedLeg[], taken: Map<number, number>, input: { paymentId: number; refundId: number; postedAt: Date }): EntryInput[] {
  const seen = new Set<number>();
  const entries: EntryInput[] = [];
  for (const leg of legs) {
    if (seen.has(leg.accountId)) continue;
    seen.add(leg.accountId);
    entries.push({
      accountId: leg.accountId,
      accountType: leg.accountType,
      schoolId: leg.schoolId,
      kind: FUND_ENTRY_REFUND,
      amount: -(taken.get(leg.accountId) ?? 0),
      postedAt: input.postedAt,
      paymentId: input.paymentId,
      refundId: input.refundId,
    });
  }
  return entries;
}
