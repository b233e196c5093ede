CREATE TABLE "user_home_widgets" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"widgets" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_home_widgets" ADD CONSTRAINT "user_home_widgets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The Overview (docs/live.md, "Overview cost"): a day's recognitions and payments company-wide by
-- time first (the (school_id, time) indexes serve one school's or a scope's), and the stock figures
-- (students, parents created until a time) from their indexes alone.
CREATE INDEX IF NOT EXISTS "recognition_records_recognized_at_school_id_idx" ON "recognition_records" USING btree ("recognized_at", "school_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_records_paid_at_school_id_amount_idx" ON "payment_records" USING btree ("paid_at", "school_id", "amount");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "students_school_id_created_at_idx" ON "students" USING btree ("school_id", "created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "parents_school_id_created_at_idx" ON "parents" USING btree ("school_id", "created_at");
