ALTER TABLE "transaction_day_totals" ADD COLUMN "merchant_share" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transaction_month_totals" ADD COLUMN "merchant_share" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Mall merchants' legs (account type 4, issue 29) in the transaction summaries' share columns: the
-- rollup trigger of 0036 counts them from now on, and the rows kept before count those posted so far.
CREATE OR REPLACE FUNCTION agent_fund_entries_keep_transaction_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO transaction_day_totals AS t (day, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share, merchant_share)
  SELECT (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 4), 0)
    FROM new_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (day, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share, merchant_share = t.merchant_share + EXCLUDED.merchant_share;
  INSERT INTO transaction_month_totals AS t (month, school_id, agent_id, channel, charge_item_id, payments, paid, refunds, refunded, company_share, agent_share, school_share, merchant_share)
  SELECT date_trunc('month', (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date)::date, p.school_id, coalesce(p.agent_id, 0), coalesce(p.channel, ''), coalesce(p.charge_item_id, 0),
         count(DISTINCT e.payment_id) FILTER (WHERE e.kind = 1),
         coalesce(sum(e.amount) FILTER (WHERE e.kind = 1), 0),
         count(DISTINCT e.refund_id) FILTER (WHERE e.kind = 2),
         -coalesce(sum(e.amount) FILTER (WHERE e.kind = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 1), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 2), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 3), 0),
         coalesce(sum(e.amount) FILTER (WHERE e.account_type = 4), 0)
    FROM new_entries e JOIN payment_records p ON p.id = e.payment_id
   WHERE e.kind IN (1, 2)
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (month, school_id, agent_id, channel, charge_item_id) DO UPDATE SET
    payments = t.payments + EXCLUDED.payments, paid = t.paid + EXCLUDED.paid,
    refunds = t.refunds + EXCLUDED.refunds, refunded = t.refunded + EXCLUDED.refunded,
    company_share = t.company_share + EXCLUDED.company_share, agent_share = t.agent_share + EXCLUDED.agent_share,
    school_share = t.school_share + EXCLUDED.school_share, merchant_share = t.merchant_share + EXCLUDED.merchant_share;
  RETURN NULL;
END $$;
--> statement-breakpoint
UPDATE transaction_day_totals t SET merchant_share = m.amount
  FROM (SELECT (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date AS day, p.school_id, coalesce(p.agent_id, 0) AS agent_id, coalesce(p.channel, '') AS channel,
               coalesce(p.charge_item_id, 0) AS charge_item_id, sum(e.amount) AS amount
          FROM agent_fund_entries e JOIN payment_records p ON p.id = e.payment_id
         WHERE e.kind IN (1, 2) AND e.account_type = 4
         GROUP BY 1, 2, 3, 4, 5) m
 WHERE t.day = m.day AND t.school_id = m.school_id AND t.agent_id = m.agent_id AND t.channel = m.channel AND t.charge_item_id = m.charge_item_id;
--> statement-breakpoint
UPDATE transaction_month_totals t SET merchant_share = m.amount
  FROM (SELECT date_trunc('month', (e.posted_at AT TIME ZONE 'Asia/Shanghai')::date)::date AS month, p.school_id, coalesce(p.agent_id, 0) AS agent_id,
               coalesce(p.channel, '') AS channel, coalesce(p.charge_item_id, 0) AS charge_item_id, sum(e.amount) AS amount
          FROM agent_fund_entries e JOIN payment_records p ON p.id = e.payment_id
         WHERE e.kind IN (1, 2) AND e.account_type = 4
         GROUP BY 1, 2, 3, 4, 5) m
 WHERE t.month = m.month AND t.school_id = m.school_id AND t.agent_id = m.agent_id AND t.channel = m.channel AND t.charge_item_id = m.charge_item_id;
