/**
 * Bulk payments for the benchmarks (`seed:scale -- --payments N`): tops payment_records up to N over
 * the last 12 months, each posted to the ledger as the app posts it — its split legs (company, agent,
 * school, by the school's rule in force: 50 / 30 / 20 here), and one payment in 50 partly refunded a
 * few days later with its reversal — so the ledger's balances and the transaction summaries' rollups
 * are the triggers' own work, exactly as after real traffic. INSERT … SELECT generate_series, one
 * transaction per batch (a stopped load keeps what it wrote; running it again tops up).
 */
import { REFUND_SUCCEEDED } from '@campus/contract';
import type { Database } from '@campus/server/src/db/client.js';
import { sql } from 'drizzle-orm';

export const PAYMENT_MONTHS = 12;
const BATCH = 50_000;
const CHANNELS = ['wechat', 'wechat', 'wechat', 'alipay', 'alipay', 'ccb', 'offline'];

const hashOf = (expr: string, salt: number) => `(abs(hashint8extended((${expr})::bigint, ${salt}) % 2147483647))`;
const run = (db: Database, text: string) => db.execute(sql.raw(text));
async function rows<T>(db: Database, text: string): Promise<T[]> {
  return ((await db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
}

/** Every school gets a service config with a split rule, and every owner its fund account. */
async function prepare(db: Database): Promise<void> {
  await run(db, `insert into service_configs (school_id, mode) select id, 1 from schools on conflict (school_id) do nothing`);
  await run(
    db,
    `insert into service_config_split_rules (service_config_id, line_no, effective_from, company_percent, agent_percent, school_percent)
     select c.id, 1, date '2000-01-01', 50, 30, 20 from service_configs c
     where not exists (select 1 from service_config_split_rules r where r.service_config_id = c.id)`,
  );
  await run(
    db,
    `insert into agent_fund_accounts (name, account_type, agent_id, school_id, account_key)
     select '公司账户', 1, null::int, null::int, 'company'
     union all select u.name, 2, u.id, null, 'agent:' || u.id from users u where u.type = 'agent'
     union all select s.school_name, 3, null, s.id, 'school:' || s.id from schools s
     on conflict (account_key) do nothing`,
  );
}

/** Tops payment_records up to `target`; answers the rows it then holds. */
export async function loadPayments(db: Database, target: number, log: (message: string) => void): Promise<number> {
  await prepare(db);
  const items = await rows<{ id: number; price: number; months: number }>(db, `select id, unit_price::int as price, service_months as months from app_charge_items order by id`);
  if (items.length === 0) throw new Error('no charge items: the demo seed should have added them');
  const [state] = await rows<{ n: number; base: number; refundBase: number }>(
    db,
    `select count(*)::int as n, coalesce(max(id), 0)::int as base, (select coalesce(max(id), 0) from refunds)::int as "refundBase" from payment_records`,
  );
  const missing = target - Number(state!.n);
  if (missing <= 0) return Number(state!.n);
  const base = Number(state!.base);
  const span = PAYMENT_MONTHS * 30 * 86_400;
  const t0 = performance.now();
  for (let from = 1; from <= missing; from += BATCH) {
    const to = Math.min(missing, from + BATCH - 1);
    await db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const item = `(${hashOf('i', 31)} % ${items.length} + 1)`;
      await run(
        t,
        `insert into payment_records (id, paid_at, out_trade_no, trade_no, channel, school_id, agent_id, charge_item_id, amount,
                                      service_from, service_to, company_percent, agent_percent, school_percent)
         select ${base} + i, paid_at, 'PB' || lpad((${base} + i)::text, 12, '0'), 'TB' || lpad((${base} + i)::text, 12, '0'),
                (array['${CHANNELS.join("','")}'])[${hashOf('i', 37)} % ${CHANNELS.length} + 1], s.id, s.agent_id,
                (array[${items.map((x) => x.id).join(',')}])[${item}], (array[${items.map((x) => x.price).join(',')}])[${item}],
                (paid_at at time zone 'Asia/Shanghai')::date,
                ((paid_at at time zone 'Asia/Shanghai')::date + (array[${items.map((x) => x.months).join(',')}])[${item}] * interval '1 month' - interval '1 day')::date,
                50, 30, 20
         from (select array_agg(id order by id) ids from schools) sids, generate_series(${from}, ${to}) i,
              lateral (select now() - interval '1 second' * ((i::bigint * 7919) % ${span}) - interval '1 minute' as paid_at) p,
              lateral (select id, agent_id from schools where id = sids.ids[${hashOf('i', 29)} % array_length(sids.ids, 1) + 1]) s`,
      );
      // The legs, split as finance/ledger.ts splitAmount does: agent and school floored, the rest the company's.
      await run(
        t,
        `insert into agent_fund_entries (account_id, account_type, school_id, kind, amount, posted_at, payment_id)
         select a.id, leg.type, case when leg.type = 3 then p.school_id end, 1, leg.amount, p.paid_at, p.id
         from payment_records p,
              lateral (select case when p.agent_id is null then 0 else p.amount * p.agent_percent / 100 end as agent, p.amount * p.school_percent / 100 as school) x,
              lateral (values (1, 'company', p.amount - x.agent - x.school), (2, 'agent:' || p.agent_id, x.agent), (3, 'school:' || p.school_id, x.school)) leg(type, key, amount)
              join agent_fund_accounts a on a.account_key = leg.key
         where p.id between ${base + from} and ${base + to} and leg.amount <> 0`,
      );
      // One in 50 refunded in part (30 %) 1–5 days later, never in the future.
      const refunded = `p.id between ${base + from} and ${base + to} and p.id % 50 = 0`;
      await run(
        t,
        `insert into refunds (payment_id, school_id, reason, state, refund_amount, out_refund_no, provider, refunded_at, created_at, updated_at)
         select p.id, p.school_id, '家长申请退款', ${REFUND_SUCCEEDED}, p.amount * 3 / 10, 'RFB' || lpad(p.id::text, 12, '0'), 'demo', r.at, r.at, r.at
         from payment_records p, lateral (select least(now(), p.paid_at + (1 + p.id % 5) * interval '1 day') as at) r
         where ${refunded}`,
      );
      await run(
        t,
        `insert into agent_fund_entries (account_id, account_type, school_id, kind, amount, posted_at, payment_id, refund_id)
         select e.account_id, e.account_type, e.school_id, 2, -share.amount, r.refunded_at, p.id, r.id
         from refunds r join payment_records p on p.id = r.payment_id
              join agent_fund_entries e on e.payment_id = p.id and e.kind = 1,
              lateral (select case when e.account_type = 1
                        then r.refund_amount - coalesce((select sum(o.amount * r.refund_amount / p.amount) from agent_fund_entries o
                                                         where o.payment_id = p.id and o.kind = 1 and o.account_type <> 1), 0)
                        else e.amount * r.refund_amount / p.amount end as amount) share
         where r.out_refund_no like 'RFB%' and ${refunded} and share.amount <> 0`,
      );
      await run(t, `update payment_records p set refunded_amount = p.amount * 3 / 10 where ${refunded}`);
    });
    const rate = Math.round(to / ((performance.now() - t0) / 1000));
    log(`payment_records: ${to.toLocaleString('en')} / ${missing.toLocaleString('en')} (${rate.toLocaleString('en')} payments/s, with legs, refunds and rollups)`);
  }
  await run(db, `select setval(pg_get_serial_sequence('payment_records', 'id'), (select max(id) from payment_records))`);
  await run(db, `select setval(pg_get_serial_sequence('refunds', 'id'), (select max(id) from refunds))`);
  await run(db, `vacuum analyze payment_records, agent_fund_entries, refunds, transaction_day_totals, transaction_month_totals`);
  return target;
}
