CREATE TABLE "attendance_dirty_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer,
	"from_day" date NOT NULL,
	"to_day" date NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attendance_school_days" (
	"school_id" integer NOT NULL,
	"day" date NOT NULL,
	"agent_id" integer DEFAULT 0 NOT NULL,
	"work_day" boolean NOT NULL,
	"enrolled" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"left_early" integer DEFAULT 0 NOT NULL,
	"recognitions" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_school_days_school_id_day_pk" PRIMARY KEY("school_id","day")
);
--> statement-breakpoint
CREATE TABLE "attendance_school_months" (
	"school_id" integer NOT NULL,
	"month" date NOT NULL,
	"agent_id" integer DEFAULT 0 NOT NULL,
	"school_days" integer DEFAULT 0 NOT NULL,
	"students" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_school_months_school_id_month_pk" PRIMARY KEY("school_id","month")
);
--> statement-breakpoint
CREATE TABLE "attendance_student_days" (
	"student_id" integer NOT NULL,
	"day" date NOT NULL,
	"school_id" integer NOT NULL,
	"first_in" timestamp (3) with time zone,
	"last_out" timestamp (3) with time zone,
	"late" boolean DEFAULT false NOT NULL,
	"left_early" boolean DEFAULT false NOT NULL,
	CONSTRAINT "attendance_student_days_student_id_day_pk" PRIMARY KEY("student_id","day")
);
--> statement-breakpoint
CREATE TABLE "attendance_student_months" (
	"student_id" integer NOT NULL,
	"month" date NOT NULL,
	"school_id" integer NOT NULL,
	"present_days" integer DEFAULT 0 NOT NULL,
	"present_school_days" integer DEFAULT 0 NOT NULL,
	"late_days" integer DEFAULT 0 NOT NULL,
	"left_early_days" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_student_months_student_id_month_pk" PRIMARY KEY("student_id","month")
);
--> statement-breakpoint
CREATE TABLE "statistics_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"last_id" bigint DEFAULT 0 NOT NULL,
	"last_day" date
);
--> statement-breakpoint
CREATE INDEX "attendance_school_days_day_idx" ON "attendance_school_days" USING btree ("day","school_id");--> statement-breakpoint
CREATE INDEX "attendance_school_days_agent_id_day_idx" ON "attendance_school_days" USING btree ("agent_id","day");--> statement-breakpoint
CREATE INDEX "attendance_school_months_month_idx" ON "attendance_school_months" USING btree ("month","school_id");--> statement-breakpoint
CREATE INDEX "attendance_student_days_school_id_day_idx" ON "attendance_student_days" USING btree ("school_id","day");--> statement-breakpoint
CREATE INDEX "attendance_student_months_school_id_month_idx" ON "attendance_student_months" USING btree ("school_id","month","student_id");--> statement-breakpoint
-- A holidayManage write changes which days are school days: queue its old and new ranges so the
-- attendance job recounts them (docs/decisions.md "Attendance rollups").
CREATE OR REPLACE FUNCTION school_holidays_mark_attendance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO attendance_dirty_ranges (school_id, from_day, to_day) VALUES (OLD.school_id, OLD.start_date, OLD.end_date);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO attendance_dirty_ranges (school_id, from_day, to_day) VALUES (NEW.school_id, NEW.start_date, NEW.end_date);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER school_holidays_mark_attendance AFTER INSERT OR UPDATE OR DELETE ON school_holidays
  FOR EACH ROW EXECUTE FUNCTION school_holidays_mark_attendance();
