-- Each entry's foreign key already holds its account's KEY SHARE lock when the balance trigger runs,
-- and FOR UPDATE conflicts with KEY SHARE: two payments posting to the company account at once each
-- held one and waited for the other (a deadlock). FOR NO KEY UPDATE is what the balance UPDATE needs;
-- it still queues postings to one account, in id order, and does not conflict with the key checks.
CREATE OR REPLACE FUNCTION agent_fund_entries_keep_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM agent_fund_accounts WHERE id IN (SELECT account_id FROM new_rows) ORDER BY id FOR NO KEY UPDATE;
  UPDATE agent_fund_accounts AS a SET balance = a.balance + s.total
  FROM (SELECT account_id, sum(amount) AS total FROM new_rows GROUP BY account_id) AS s
  WHERE a.id = s.account_id;
  RETURN NULL;
END $$;
