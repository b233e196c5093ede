DROP TABLE "statistics_watermarks" CASCADE;--> statement-breakpoint
DROP TABLE "rollup_watermarks" CASCADE;