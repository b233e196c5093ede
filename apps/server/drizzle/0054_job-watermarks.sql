CREATE TABLE "job_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"last_id" bigint DEFAULT 0 NOT NULL,
	"last_day" date,
	"last_at" timestamp (3) with time zone
);
--> statement-breakpoint
-- Carry each job's mark over from the two tables this one replaces (dropped by the next migration).
INSERT INTO "job_watermarks" ("name", "last_id", "last_day") SELECT "name", "last_id", "last_day" FROM "statistics_watermarks" ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "job_watermarks" ("name", "last_id") SELECT "name", "last_id" FROM "rollup_watermarks" ON CONFLICT DO NOTHING;
