-- The buttons issue 29 added to three mall pages, for grants kept before they existed (the way
-- 0037_import-button.sql gave `import`; docs/decisions.md "The mall's new buttons are granted"):
-- scallionRiceOrder (424) and mallOrderManage (425) gained `add` and `delete` beside `update`;
-- evaluateManage (426) gained `add` and `update` (the reply) beside `delete`; mallOrderManage's
-- `refund` goes to those of them that may also refund payments on refundManage (706).
UPDATE "grants"
SET "buttons" = "buttons" || ARRAY(SELECT b FROM unnest(ARRAY['add', 'delete']::text[]) AS b WHERE NOT (b = ANY("buttons"))), "updated_at" = now()
WHERE "frame_id" IN (424, 425)
  AND 'update' = ANY("buttons")
  AND NOT ("buttons" @> ARRAY['add', 'delete']::text[]);
--> statement-breakpoint
UPDATE "grants"
SET "buttons" = "buttons" || ARRAY(SELECT b FROM unnest(ARRAY['add', 'update']::text[]) AS b WHERE NOT (b = ANY("buttons"))), "updated_at" = now()
WHERE "frame_id" = 426
  AND 'delete' = ANY("buttons")
  AND NOT ("buttons" @> ARRAY['add', 'update']::text[]);
--> statement-breakpoint
UPDATE "grants" g
SET "buttons" = array_append(g."buttons", 'refund'), "updated_at" = now()
WHERE g."frame_id" = 425
  AND 'update' = ANY(g."buttons")
  AND NOT ('refund' = ANY(g."buttons"))
  AND EXISTS (
    SELECT 1 FROM "grants" r
    WHERE r."frame_id" = 706 AND 'refund' = ANY(r."buttons")
      AND r."subject_type" = g."subject_type"
      AND r."user_type" IS NOT DISTINCT FROM g."user_type"
      AND r."user_id" IS NOT DISTINCT FROM g."user_id"
  );
