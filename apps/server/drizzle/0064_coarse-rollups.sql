CREATE TABLE "transaction_school_periods" (
	"grain" text NOT NULL,
	"period" date NOT NULL,
	"school_id" integer NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "transaction_school_periods_grain_period_school_id_pk" PRIMARY KEY("grain","period","school_id")
);
--> statement-breakpoint
CREATE TABLE "attendance_agent_days" (
	"day" date NOT NULL,
	"agent_id" integer NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"school_days" integer DEFAULT 0 NOT NULL,
	"expected" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"absent" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"left_early" integer DEFAULT 0 NOT NULL,
	"recognitions" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_agent_days_day_agent_id_pk" PRIMARY KEY("day","agent_id")
);
--> statement-breakpoint
CREATE TABLE "attendance_school_periods" (
	"grain" text NOT NULL,
	"period" date NOT NULL,
	"school_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"days" integer DEFAULT 0 NOT NULL,
	"school_days" integer DEFAULT 0 NOT NULL,
	"expected" integer DEFAULT 0 NOT NULL,
	"present" integer DEFAULT 0 NOT NULL,
	"absent" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"left_early" integer DEFAULT 0 NOT NULL,
	"recognitions" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "attendance_school_periods_grain_period_school_id_agent_id_pk" PRIMARY KEY("grain","period","school_id","agent_id")
);
--> statement-breakpoint
CREATE INDEX "transaction_school_periods_school_id_grain_period_idx" ON "transaction_school_periods" USING btree ("school_id","grain","period");--> statement-breakpoint
CREATE INDEX "attendance_school_periods_agent_id_grain_period_idx" ON "attendance_school_periods" USING btree ("agent_id","grain","period");--> statement-breakpoint
-- Coarser rollups for long ranges (docs/decisions.md "Coarser rollups for long ranges"): each is the
-- sum of rows of a finer rollup, kept by statement triggers on that rollup, so whatever writes it (the
-- ledger trigger, the attendance job, a test) moves them in the same statement. A trigger adds its
-- statement's new rows and subtracts its old ones (an update adds the difference), skips keys whose
-- difference is nil, and upserts in key order so two writers never wait on each other crosswise.
CREATE FUNCTION transaction_day_totals_keep_school_periods() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO transaction_school_periods AS p (grain, period, school_id, payments, paid, refunds, refunded)
    SELECT g.grain, date_trunc(g.grain, c.day::timestamp)::date, c.school_id,
           sum(c.sign * c.payments), sum(c.sign * c.paid), sum(c.sign * c.refunds), sum(c.sign * c.refunded)
      FROM (%s) c CROSS JOIN (VALUES ('day'), ('week'), ('month')) g(grain)
     GROUP BY 1, 2, 3
    HAVING (sum(c.sign * c.payments), sum(c.sign * c.paid), sum(c.sign * c.refunds), sum(c.sign * c.refunded)) <> (0, 0, 0, 0)
     ORDER BY 1, 2, 3
    ON CONFLICT (grain, period, school_id) DO UPDATE SET
      payments = p.payments + excluded.payments, paid = p.paid + excluded.paid,
      refunds = p.refunds + excluded.refunds, refunded = p.refunded + excluded.refunded
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION transaction_day_totals_clear_school_periods() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM transaction_school_periods;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER transaction_day_totals_periods_on_insert AFTER INSERT ON transaction_day_totals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_day_totals_keep_school_periods();
--> statement-breakpoint
CREATE TRIGGER transaction_day_totals_periods_on_update AFTER UPDATE ON transaction_day_totals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_day_totals_keep_school_periods();
--> statement-breakpoint
CREATE TRIGGER transaction_day_totals_periods_on_delete AFTER DELETE ON transaction_day_totals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transaction_day_totals_keep_school_periods();
--> statement-breakpoint
CREATE TRIGGER transaction_day_totals_periods_on_truncate AFTER TRUNCATE ON transaction_day_totals
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_day_totals_clear_school_periods();
--> statement-breakpoint
-- After the triggers, in the migration's transaction: their lock holds the ledger's writers off until the sums are in.
INSERT INTO transaction_school_periods (grain, period, school_id, payments, paid, refunds, refunded)
SELECT g.grain, date_trunc(g.grain, t.day::timestamp)::date, t.school_id, sum(t.payments), sum(t.paid), sum(t.refunds), sum(t.refunded)
  FROM transaction_day_totals t CROSS JOIN (VALUES ('day'), ('week'), ('month')) g(grain)
 GROUP BY 1, 2, 3;
--> statement-breakpoint
-- School-day measures count school days only (as SchoolStatistics sums them); `days` counts the rows.
CREATE FUNCTION attendance_school_days_keep_coarse() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH c AS MATERIALIZED (
      SELECT day, school_id, agent_id, sign AS days, sign * work_day::int AS school_days,
             sign * CASE WHEN work_day THEN enrolled ELSE 0 END AS expected, sign * present AS present,
             sign * CASE WHEN work_day THEN greatest(enrolled - present, 0) ELSE 0 END AS absent,
             sign * CASE WHEN work_day THEN late ELSE 0 END AS late, sign * CASE WHEN work_day THEN left_early ELSE 0 END AS left_early,
             sign * recognitions AS recognitions, sign * failed AS failed
        FROM (%s) ch),
    periods AS (
      INSERT INTO attendance_school_periods AS p (grain, period, school_id, agent_id, days, school_days, expected, present, absent, late, left_early, recognitions, failed)
      SELECT g.grain, date_trunc(g.grain, c.day::timestamp)::date, c.school_id, c.agent_id, sum(c.days), sum(c.school_days), sum(c.expected),
             sum(c.present), sum(c.absent), sum(c.late), sum(c.left_early), sum(c.recognitions), sum(c.failed)
        FROM c CROSS JOIN (VALUES ('week'), ('month')) g(grain)
       GROUP BY 1, 2, 3, 4
      HAVING (sum(c.days), sum(c.school_days), sum(c.expected), sum(c.present), sum(c.absent), sum(c.late), sum(c.left_early), sum(c.recognitions), sum(c.failed))
             <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
       ORDER BY 1, 2, 3, 4
      ON CONFLICT (grain, period, school_id, agent_id) DO UPDATE SET
        days = p.days + excluded.days, school_days = p.school_days + excluded.school_days, expected = p.expected + excluded.expected,
        present = p.present + excluded.present, absent = p.absent + excluded.absent, late = p.late + excluded.late,
        left_early = p.left_early + excluded.left_early, recognitions = p.recognitions + excluded.recognitions, failed = p.failed + excluded.failed)
    INSERT INTO attendance_agent_days AS a (day, agent_id, days, school_days, expected, present, absent, late, left_early, recognitions, failed)
    SELECT c.day, c.agent_id, sum(c.days), sum(c.school_days), sum(c.expected), sum(c.present), sum(c.absent), sum(c.late), sum(c.left_early),
           sum(c.recognitions), sum(c.failed)
      FROM c
     GROUP BY 1, 2
    HAVING (sum(c.days), sum(c.school_days), sum(c.expected), sum(c.present), sum(c.absent), sum(c.late), sum(c.left_early), sum(c.recognitions), sum(c.failed))
           <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
     ORDER BY 1, 2
    ON CONFLICT (day, agent_id) DO UPDATE SET
      days = a.days + excluded.days, school_days = a.school_days + excluded.school_days, expected = a.expected + excluded.expected,
      present = a.present + excluded.present, absent = a.absent + excluded.absent, late = a.late + excluded.late,
      left_early = a.left_early + excluded.left_early, recognitions = a.recognitions + excluded.recognitions, failed = a.failed + excluded.failed
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION attendance_school_days_clear_coarse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM attendance_school_periods;
  DELETE FROM attendance_agent_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER attendance_school_days_coarse_on_insert AFTER INSERT ON attendance_school_days
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attendance_school_days_keep_coarse();
--> statement-breakpoint
CREATE TRIGGER attendance_school_days_coarse_on_update AFTER UPDATE ON attendance_school_days
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attendance_school_days_keep_coarse();
--> statement-breakpoint
CREATE TRIGGER attendance_school_days_coarse_on_delete AFTER DELETE ON attendance_school_days
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION attendance_school_days_keep_coarse();
--> statement-breakpoint
CREATE TRIGGER attendance_school_days_coarse_on_truncate AFTER TRUNCATE ON attendance_school_days
  FOR EACH STATEMENT EXECUTE FUNCTION attendance_school_days_clear_coarse();
--> statement-breakpoint
INSERT INTO attendance_school_periods (grain, period, school_id, agent_id, days, school_days, expected, present, absent, late, left_early, recognitions, failed)
SELECT g.grain, date_trunc(g.grain, d.day::timestamp)::date, d.school_id, d.agent_id, count(*), count(*) FILTER (WHERE d.work_day),
       coalesce(sum(d.enrolled) FILTER (WHERE d.work_day), 0), sum(d.present),
       coalesce(sum(greatest(d.enrolled - d.present, 0)) FILTER (WHERE d.work_day), 0),
       coalesce(sum(d.late) FILTER (WHERE d.work_day), 0), coalesce(sum(d.left_early) FILTER (WHERE d.work_day), 0),
       sum(d.recognitions), sum(d.failed)
  FROM attendance_school_days d CROSS JOIN (VALUES ('week'), ('month')) g(grain)
 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO attendance_agent_days (day, agent_id, days, school_days, expected, present, absent, late, left_early, recognitions, failed)
SELECT d.day, d.agent_id, count(*), count(*) FILTER (WHERE d.work_day),
       coalesce(sum(d.enrolled) FILTER (WHERE d.work_day), 0), sum(d.present),
       coalesce(sum(greatest(d.enrolled - d.present, 0)) FILTER (WHERE d.work_day), 0),
       coalesce(sum(d.late) FILTER (WHERE d.work_day), 0), coalesce(sum(d.left_early) FILTER (WHERE d.work_day), 0),
       sum(d.recognitions), sum(d.failed)
  FROM attendance_school_days d
 GROUP BY 1, 2;
