CREATE TABLE "job_runs" (
	"name" text NOT NULL,
	"run_on" date NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "job_runs_name_run_on_pk" PRIMARY KEY("name","run_on")
);
--> statement-breakpoint
DROP INDEX "login_attempts_created_at_idx";--> statement-breakpoint
DROP INDEX "login_attempts_ip_created_at_idx";--> statement-breakpoint
DROP INDEX "operation_log_family_created_at_idx";--> statement-breakpoint
DROP INDEX "operation_log_user_id_created_at_idx";--> statement-breakpoint
CREATE INDEX "login_attempts_created_at_id_idx" ON "login_attempts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "login_attempts_outcome_created_at_id_idx" ON "login_attempts" USING btree ("outcome","created_at","id");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_created_at_id_idx" ON "login_attempts" USING btree ("ip" text_pattern_ops,"created_at","id");--> statement-breakpoint
CREATE INDEX "operation_log_created_at_id_idx" ON "operation_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "operation_log_family_created_at_id_idx" ON "operation_log" USING btree ("family","created_at","id");--> statement-breakpoint
CREATE INDEX "operation_log_user_id_created_at_id_idx" ON "operation_log" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "operation_log_action_created_at_id_idx" ON "operation_log" USING btree ("action","created_at","id");