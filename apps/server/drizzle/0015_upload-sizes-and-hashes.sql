ALTER TABLE "uploaded_files" ADD COLUMN "size" bigint;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD COLUMN "sha256" text;