ALTER TABLE "refunds" ADD COLUMN "market_order_line_id" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_market_order_line_id_fk" FOREIGN KEY ("market_order_line_id") REFERENCES "public"."market_order_lines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Parents' line applications still waiting name their order and line in the reason ("SC… #2: …"):
-- linked now, approving them moves the line as a new application's approval does.
UPDATE "refunds" r SET "market_order_line_id" = l."id"
FROM "market_orders" o JOIN "market_order_lines" l ON l."market_order_id" = o."id"
WHERE r."state" = 1 AND r."market_order_line_id" IS NULL AND r."payment_id" = o."payment_id"
  AND r."reason" LIKE o."order_no" || ' #' || l."line_no" || ':%';
