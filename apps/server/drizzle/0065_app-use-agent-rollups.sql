CREATE TABLE "app_use_agent_function_days" (
	"day" date NOT NULL,
	"agent_id" integer NOT NULL,
	"function_code" text NOT NULL,
	"uses" integer NOT NULL,
	"parents" integer NOT NULL,
	CONSTRAINT "app_use_agent_function_days_day_agent_id_function_code_pk" PRIMARY KEY("day","agent_id","function_code")
);
--> statement-breakpoint
CREATE TABLE "app_use_agent_version_days" (
	"day" date NOT NULL,
	"agent_id" integer NOT NULL,
	"os_type" smallint NOT NULL,
	"os_version" text NOT NULL,
	"app_type" smallint NOT NULL,
	"app_version" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "app_use_agent_version_days_day_agent_id_os_type_os_version_app_type_app_version_pk" PRIMARY KEY("day","agent_id","os_type","os_version","app_type","app_version")
);
--> statement-breakpoint
CREATE INDEX "app_use_agent_function_days_agent_id_day_idx" ON "app_use_agent_function_days" USING btree ("agent_id","day");--> statement-breakpoint
CREATE INDEX "app_use_agent_version_days_agent_id_day_idx" ON "app_use_agent_version_days" USING btree ("agent_id","day");--> statement-breakpoint
CREATE INDEX "app_use_parent_days_parent_id_day_idx" ON "app_use_parent_days" USING btree ("parent_id","day");--> statement-breakpoint
-- App-use rollups per agent (docs/decisions.md "App use per agent, and periods counted from the
-- batch"): company-wide and agent callers of uaStatistics, funStatistics and functionalTrends read a
-- few rows per day instead of one per school. Each is the sum of the per-school day rollup under the
-- agent its school has now (0: none), kept by statement triggers on that rollup, so whatever writes it
-- (the app-use job, a test) moves them in the same statement. A trigger adds its statement's new rows
-- and subtracts its old ones and upserts in key order; it reads the schools' agents FOR SHARE in id
-- order, so a school changing agent meanwhile waits for the write to commit and then moves what it
-- counted, or the write waits for the change and reads the new agent (as devices_keep_agent_rollup).
CREATE FUNCTION app_use_function_days_keep_agents() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH c AS (%s),
    agents AS (SELECT id, agent_id FROM schools WHERE id IN (SELECT school_id FROM c) ORDER BY id FOR SHARE)
    INSERT INTO app_use_agent_function_days AS a (day, agent_id, function_code, uses, parents)
    SELECT c.day, coalesce(s.agent_id, 0), c.function_code, sum(c.sign * c.uses), sum(c.sign * c.parents)
      FROM c LEFT JOIN agents s ON s.id = c.school_id
     GROUP BY 1, 2, 3
    HAVING (sum(c.sign * c.uses), sum(c.sign * c.parents)) <> (0, 0)
     ORDER BY 1, 2, 3
    ON CONFLICT (day, agent_id, function_code) DO UPDATE SET uses = a.uses + excluded.uses, parents = a.parents + excluded.parents
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION app_use_version_days_keep_agents() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH c AS (%s),
    agents AS (SELECT id, agent_id FROM schools WHERE id IN (SELECT school_id FROM c) ORDER BY id FOR SHARE)
    INSERT INTO app_use_agent_version_days AS a (day, agent_id, os_type, os_version, app_type, app_version, sessions)
    SELECT c.day, coalesce(s.agent_id, 0), c.os_type, c.os_version, c.app_type, c.app_version, sum(c.sign * c.sessions)
      FROM c LEFT JOIN agents s ON s.id = c.school_id
     GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(c.sign * c.sessions) <> 0
     ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (day, agent_id, os_type, os_version, app_type, app_version) DO UPDATE SET sessions = a.sessions + excluded.sessions
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION app_use_function_days_clear_agents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM app_use_agent_function_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION app_use_version_days_clear_agents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM app_use_agent_version_days;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER app_use_function_days_agents_on_insert AFTER INSERT ON app_use_function_days
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_function_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_function_days_agents_on_update AFTER UPDATE ON app_use_function_days
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_function_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_function_days_agents_on_delete AFTER DELETE ON app_use_function_days
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_function_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_function_days_agents_on_truncate AFTER TRUNCATE ON app_use_function_days
  FOR EACH STATEMENT EXECUTE FUNCTION app_use_function_days_clear_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_version_days_agents_on_insert AFTER INSERT ON app_use_version_days
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_version_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_version_days_agents_on_update AFTER UPDATE ON app_use_version_days
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_version_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_version_days_agents_on_delete AFTER DELETE ON app_use_version_days
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION app_use_version_days_keep_agents();
--> statement-breakpoint
CREATE TRIGGER app_use_version_days_agents_on_truncate AFTER TRUNCATE ON app_use_version_days
  FOR EACH STATEMENT EXECUTE FUNCTION app_use_version_days_clear_agents();
--> statement-breakpoint
-- A school that changes agent takes its app use along. Row-level because a trigger with transition
-- tables cannot be limited to UPDATE OF agent_id, and agents change rarely and one school at a time.
CREATE FUNCTION schools_move_app_use_agent_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO app_use_agent_function_days AS a (day, agent_id, function_code, uses, parents)
  SELECT d.day, m.agent_id, d.function_code, m.sign * d.uses, m.sign * d.parents
    FROM app_use_function_days d
    CROSS JOIN (VALUES (coalesce(OLD.agent_id, 0), -1), (coalesce(NEW.agent_id, 0), 1)) AS m(agent_id, sign)
   WHERE d.school_id = NEW.id
   ORDER BY 1, 2, 3
  ON CONFLICT (day, agent_id, function_code) DO UPDATE SET uses = a.uses + excluded.uses, parents = a.parents + excluded.parents;
  INSERT INTO app_use_agent_version_days AS a (day, agent_id, os_type, os_version, app_type, app_version, sessions)
  SELECT d.day, m.agent_id, d.os_type, d.os_version, d.app_type, d.app_version, m.sign * d.sessions
    FROM app_use_version_days d
    CROSS JOIN (VALUES (coalesce(OLD.agent_id, 0), -1), (coalesce(NEW.agent_id, 0), 1)) AS m(agent_id, sign)
   WHERE d.school_id = NEW.id
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (day, agent_id, os_type, os_version, app_type, app_version) DO UPDATE SET sessions = a.sessions + excluded.sessions;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER schools_app_use_agent_rollups_on_agent_change AFTER UPDATE OF agent_id ON schools
  FOR EACH ROW WHEN (coalesce(OLD.agent_id, 0) <> coalesce(NEW.agent_id, 0)) EXECUTE FUNCTION schools_move_app_use_agent_rollups();
--> statement-breakpoint
-- After the triggers, in the migration's transaction: the job waits on the tables' locks until the sums are in.
INSERT INTO app_use_agent_function_days (day, agent_id, function_code, uses, parents)
SELECT d.day, coalesce(s.agent_id, 0), d.function_code, sum(d.uses), sum(d.parents)
  FROM app_use_function_days d LEFT JOIN schools s ON s.id = d.school_id
 GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO app_use_agent_version_days (day, agent_id, os_type, os_version, app_type, app_version, sessions)
SELECT d.day, coalesce(s.agent_id, 0), d.os_type, d.os_version, d.app_type, d.app_version, sum(d.sessions)
  FROM app_use_version_days d LEFT JOIN schools s ON s.id = d.school_id
 GROUP BY 1, 2, 3, 4, 5, 6;
