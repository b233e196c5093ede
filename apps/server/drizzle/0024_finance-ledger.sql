-- The agent funds ledger is append-only and its balances are the database's, not a caller's:
-- entries are never updated or deleted, and an account's balance moves only with the entries
-- posted to it, in the transaction that posts them (docs/decisions.md "Agent funds ledger").

CREATE FUNCTION agent_fund_entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'agent fund entries are immutable: post a new entry instead' USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_fund_entries_immutable BEFORE UPDATE OR DELETE ON agent_fund_entries
  FOR EACH ROW EXECUTE FUNCTION agent_fund_entries_refuse_change();
--> statement-breakpoint
-- Every posting statement adds its amounts to the accounts it touched. The accounts are locked in id
-- order first: two payments posting to the company account and their own agents' never deadlock.
CREATE FUNCTION agent_fund_entries_keep_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM agent_fund_accounts WHERE id IN (SELECT account_id FROM new_rows) ORDER BY id FOR UPDATE;
  UPDATE agent_fund_accounts AS a SET balance = a.balance + s.total
  FROM (SELECT account_id, sum(amount) AS total FROM new_rows GROUP BY account_id) AS s
  WHERE a.id = s.account_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_fund_entries_balances AFTER INSERT ON agent_fund_entries
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION agent_fund_entries_keep_balances();
--> statement-breakpoint
-- Only the trigger above moves a balance (it runs one trigger level deep); a direct UPDATE of the
-- column, by any caller, is refused.
CREATE FUNCTION agent_fund_accounts_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'an agent fund balance is the sum of its entries: post an entry instead' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_fund_accounts_balance_guard BEFORE UPDATE ON agent_fund_accounts
  FOR EACH ROW EXECUTE FUNCTION agent_fund_accounts_guard_balance();
--> statement-breakpoint
-- An account starts at zero; its entries make the rest.
CREATE FUNCTION agent_fund_accounts_start_at_zero() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.balance := 0;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER agent_fund_accounts_zero_balance BEFORE INSERT ON agent_fund_accounts
  FOR EACH ROW EXECUTE FUNCTION agent_fund_accounts_start_at_zero();
--> statement-breakpoint
ALTER TABLE agent_fund_entries ALTER COLUMN account_id SET NOT NULL, ALTER COLUMN amount SET NOT NULL,
  ALTER COLUMN kind SET NOT NULL, ALTER COLUMN posted_at SET NOT NULL, ALTER COLUMN account_type SET NOT NULL;
--> statement-breakpoint
ALTER TABLE agent_fund_accounts ALTER COLUMN balance SET NOT NULL;
--> statement-breakpoint
ALTER TABLE payment_records ALTER COLUMN paid_at SET NOT NULL, ALTER COLUMN out_trade_no SET NOT NULL,
  ALTER COLUMN channel SET NOT NULL, ALTER COLUMN school_id SET NOT NULL, ALTER COLUMN amount SET NOT NULL,
  ALTER COLUMN refunded_amount SET NOT NULL, ALTER COLUMN company_percent SET NOT NULL,
  ALTER COLUMN agent_percent SET NOT NULL, ALTER COLUMN school_percent SET NOT NULL,
  ADD CONSTRAINT payment_records_amount_positive CHECK (amount > 0),
  ADD CONSTRAINT payment_records_refunded_within_amount CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  ADD CONSTRAINT payment_records_split_is_whole CHECK (company_percent + agent_percent + school_percent = 100);
--> statement-breakpoint
-- The rule in force for a payment is read by school and date.
CREATE INDEX service_config_split_rules_effective_idx ON service_config_split_rules (service_config_id, effective_from);
--> statement-breakpoint
-- An entry's legs are read by payment (reversals, the nightly check) whatever the school.
CREATE INDEX agent_fund_entries_payment_idx ON agent_fund_entries (payment_id) WHERE payment_id IS NOT NULL;
