-- The SMS outbox (frame 806) lists live verification codes: it is read on the page, never exported.
-- Grants kept from before (company types and single users) lose its `export` button.
UPDATE "grants"
SET "buttons" = array_remove("buttons", 'export'), "updated_at" = now()
WHERE "frame_id" = 806
  AND 'export' = ANY("buttons");
