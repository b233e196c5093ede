CREATE TABLE "school_stock_counts" (
	"school_id" integer PRIMARY KEY NOT NULL,
	"students" integer DEFAULT 0 NOT NULL,
	"parents" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The Overview's students and parents (docs/decisions.md "The Overview's recognitions from an hourly
-- counter"): today's figure is the per-school sum below, yesterday's and last week's the same less the
-- rows created since, read by `created_at` (company-wide) or `(school_id, created_at)` (a scope).
-- Each statement adds its new rows and subtracts its old ones per school (an update that keeps the
-- school cancels out), in school order so two writers never wait on each other crosswise.
CREATE FUNCTION school_stock_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT school_id, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT school_id, -1 AS sign FROM old_rows'
    ELSE 'SELECT school_id, 1 AS sign FROM new_rows UNION ALL SELECT school_id, -1 AS sign FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    INSERT INTO school_stock_counts AS c (school_id, %1$I)
    SELECT school_id, sum(sign) FROM (%2$s) ch GROUP BY 1 HAVING sum(sign) <> 0 ORDER BY 1
    ON CONFLICT (school_id) DO UPDATE SET %1$I = c.%1$I + excluded.%1$I
  $q$, TG_TABLE_NAME, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION school_stock_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('UPDATE school_stock_counts SET %1$I = 0', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER students_stock_on_insert AFTER INSERT ON students
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER students_stock_on_update AFTER UPDATE ON students
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER students_stock_on_delete AFTER DELETE ON students
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER students_stock_on_truncate AFTER TRUNCATE ON students FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_clear();
--> statement-breakpoint
CREATE TRIGGER parents_stock_on_insert AFTER INSERT ON parents
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER parents_stock_on_update AFTER UPDATE ON parents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER parents_stock_on_delete AFTER DELETE ON parents
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_keep();
--> statement-breakpoint
CREATE TRIGGER parents_stock_on_truncate AFTER TRUNCATE ON parents FOR EACH STATEMENT EXECUTE FUNCTION school_stock_counts_clear();
--> statement-breakpoint
-- After the triggers, in the migration's transaction: their lock holds writers off until the counts are in.
INSERT INTO school_stock_counts (school_id, students, parents)
SELECT school_id, sum(s), sum(p) FROM (
  SELECT school_id, count(*) AS s, 0 AS p FROM students GROUP BY 1
  UNION ALL SELECT school_id, 0, count(*) FROM parents GROUP BY 1) x
GROUP BY 1;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "students_created_at_idx" ON "students" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "parents_created_at_idx" ON "parents" USING btree ("created_at");
