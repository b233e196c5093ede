-- The transaction summaries' rollups, kept in the transaction of every ledger posting (see
-- transactionTotals in src/db/schema/finance.ts). A payment posts its legs (kind 1) and a succeeded
-- refund its reversal (kind 2) each in one statement (finance/ledger.ts postEntries), so within a
-- statement a payment or a refund is counted once; adjustments (kind 3) name no payment and are not
-- transactions. Rows are upserted in key order, so concurrent postings lock rollup rows in one order.
CREATE FUNCTION agent_fund_entries_keep_transaction_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_day_totals AS t (day, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share)
  SELECT (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0)
    FROM new_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share;
  INSERT INTO transaction_month_totals AS t (month, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share)
  SELECT date_trunc('month', (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date)::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0)
    FROM new_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (month, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_fund_entries_keep_transaction_totals AFTER INSERT ON agent_fund_entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION agent_fund_entries_keep_transaction_totals();
--> statement-breakpoint
-- The payments and refunds recorded before this migration.
  INSERT INTO transaction_day_totals AS t (day, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share)
  SELECT (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0)
    FROM agent_fund_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share;
--> statement-breakpoint
  INSERT INTO transaction_month_totals AS t (month, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share)
  SELECT date_trunc('month', (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date)::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0)
    FROM agent_fund_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (month, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share;
