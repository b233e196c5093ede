/**
 * The nightly proof that the ledger holds: every account's balance equals the sum of its entries,
 * and every payment's legs equal its amount and its reversals its refunded amount. Each run is
 * recorded in ledger_checks; a disagreement is also logged as an error by the daily job runner.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { ledgerChecks } from '../db/schema/index.js';
import type { DailyJob } from '../platform/daily-jobs.js';

type Rows = { rows: Record<string, unknown>[] };

/** At most this many disagreements are kept per run: one is enough to act, thousands would bloat the row. */
const MISMATCH_LIMIT = 100;

export interface LedgerCheckResult {
  accountsChecked: number;
  paymentsChecked: number;
  isConsistent: boolean;
  mismatches: { accounts: Record<string, unknown>[]; payments: Record<string, unknown>[] };
}

/** Runs the check over the whole ledger and records its result. */
export async function checkLedger(db: Database): Promise<LedgerCheckResult> {
  const accounts = (await db.execute(sql`
    select a.id as "accountId", a.balance, coalesce(e.total, 0) as "sumOfEntries"
    from agent_fund_accounts a left join (select account_id, sum(amount) as total from agent_fund_entries group by account_id) e on e.account_id = a.id
    where a.balance <> coalesce(e.total, 0) order by a.id limit ${MISMATCH_LIMIT}`)) as unknown as Rows;
  const payments = (await db.execute(sql`
    select p.id as "paymentId", p.amount, p.refunded_amount as "refundedAmount", coalesce(e.legs, 0) as legs, coalesce(e.reversals, 0) as reversals
    from payment_records p left join (
      select payment_id, sum(amount) filter (where kind = 1) as legs, -sum(amount) filter (where kind = 2) as reversals
      from agent_fund_entries where payment_id is not null group by payment_id
    ) e on e.payment_id = p.id
    where p.amount <> coalesce(e.legs, 0) or p.refunded_amount <> coalesce(e.reversals, 0) order by p.id limit ${MISMATCH_LIMIT}`)) as unknown as Rows;
  const counts = (await db.execute(sql`select (select count(*) from agent_fund_accounts)::int as accounts, (select count(*) from payment_records)::int as payments`)) as unknown as Rows;
  const result: LedgerCheckResult = {
    accountsChecked: Number(counts.rows[0]!.accounts),
    paymentsChecked: Number(counts.rows[0]!.payments),
    isConsistent: accounts.rows.length === 0 && payments.rows.length === 0,
    mismatches: { accounts: accounts.rows.map(numbers), payments: payments.rows.map(numbers) },
  };
  await db.insert(ledgerChecks).values(result);
  return result;
}

/** bigint sums arrive as text from node-postgres: the mismatch report keeps numbers. */
function numbers(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
}

/** The daily job: a disagreement fails the run, so the runner logs it and retries at the next check. */
export const ledgerCheckJob: DailyJob = {
  name: 'ledger-check',
  async run(db) {
    const result = await checkLedger(db);
    if (!result.isConsistent) throw new Error(`ledger check failed: ${JSON.stringify(result.mismatches)}`);
    return result;
  },
};
