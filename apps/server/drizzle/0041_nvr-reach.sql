DROP INDEX "nvrs_school_id_online_idx";--> statement-breakpoint
ALTER TABLE "nvrs" ADD COLUMN "last_seen_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "nvrs" ADD COLUMN "offline_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "nvrs" DROP COLUMN "online";