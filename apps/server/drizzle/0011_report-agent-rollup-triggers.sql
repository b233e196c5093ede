-- warehousingStatistics for company-wide and agent callers reads devices per (day, agent, model):
-- a few agents hold hundreds of schools each, so this rollup is many times smaller than the one per
-- school and a three-year range stays within budget (docs/performance.md "Reports over 1,000,000
-- devices"). Agent 0 stands for "none": devices in stock (no school) and schools without an agent.
-- A device counts under the agent of its current school, the rule that puts it in the agent's scope.

-- Adds the statement's new rows and subtracts its old ones, like devices_keep_rollups (0008), under
-- the agent each row's school has now. The schools are locked FOR SHARE (in id order, so two writers
-- never wait on each other crosswise): a school changing agent meanwhile waits until this transaction
-- commits and then moves what it counted (schools_move_agent_rollup), or this one waits for that
-- change and reads the new agent. Read without the lock, a device written while its school changes
-- agent would stay counted under the old agent.
CREATE FUNCTION devices_keep_agent_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_rows'
    ELSE 'SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 AS sign FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH changes AS (%s),
    agents AS (
      SELECT id, agent_id FROM schools WHERE id IN (SELECT school_id FROM changes) ORDER BY id FOR SHARE
    ),
    counted AS (
      SELECT ch.created_at, ch.shipped_at, ch.installed_at, ch.device_class_code, ch.sign, coalesce(a.agent_id, 0) AS agent_id
      FROM changes ch LEFT JOIN agents a ON a.id = ch.school_id
    ),
    events AS (
      SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, agent_id, device_class_code,
             sign AS stocked, 0 AS shipped, 0 AS installed FROM counted
      UNION ALL
      SELECT (shipped_at AT TIME ZONE 'Asia/Shanghai')::date, agent_id, device_class_code, 0, sign, 0
      FROM counted WHERE shipped_at IS NOT NULL
      UNION ALL
      SELECT (installed_at AT TIME ZONE 'Asia/Shanghai')::date, agent_id, device_class_code, 0, 0, sign
      FROM counted WHERE installed_at IS NOT NULL
    )
    INSERT INTO device_agent_day_counts AS c (day, agent_id, device_class_code, stocked, shipped, installed)
    SELECT day, agent_id, device_class_code, sum(stocked), sum(shipped), sum(installed)
    FROM events GROUP BY 1, 2, 3
    HAVING sum(stocked) <> 0 OR sum(shipped) <> 0 OR sum(installed) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (day, agent_id, device_class_code) DO UPDATE
      SET stocked = c.stocked + excluded.stocked, shipped = c.shipped + excluded.shipped, installed = c.installed + excluded.installed
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_agent_rollup_on_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_agent_rollup();
--> statement-breakpoint
CREATE TRIGGER devices_agent_rollup_on_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_agent_rollup();
--> statement-breakpoint
CREATE TRIGGER devices_agent_rollup_on_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_agent_rollup();
--> statement-breakpoint
CREATE FUNCTION devices_clear_agent_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_agent_day_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_agent_rollup_on_truncate AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION devices_clear_agent_rollup();
--> statement-breakpoint
-- A school that changes agent takes its devices along: its per-school day counts (which the device
-- triggers keep in the same transactions as this rollup) leave the old agent and join the new one.
-- Row-level because a trigger with transition tables cannot be limited to UPDATE OF agent_id, and
-- agents change rarely and one school at a time.
CREATE FUNCTION schools_move_agent_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_agent_day_counts AS c (day, agent_id, device_class_code, stocked, shipped, installed)
  SELECT d.day, m.agent_id, d.device_class_code, m.sign * d.stocked, m.sign * d.shipped, m.sign * d.installed
  FROM device_day_counts d
  CROSS JOIN (VALUES (coalesce(OLD.agent_id, 0), -1), (coalesce(NEW.agent_id, 0), 1)) AS m(agent_id, sign)
  WHERE d.school_id = NEW.id AND (d.stocked <> 0 OR d.shipped <> 0 OR d.installed <> 0)
  ORDER BY 1, 2, 3
  ON CONFLICT (day, agent_id, device_class_code) DO UPDATE
    SET stocked = c.stocked + excluded.stocked, shipped = c.shipped + excluded.shipped, installed = c.installed + excluded.installed;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER schools_agent_rollup_on_agent_change AFTER UPDATE OF agent_id ON schools
  FOR EACH ROW WHEN (coalesce(OLD.agent_id, 0) <> coalesce(NEW.agent_id, 0)) EXECUTE FUNCTION schools_move_agent_rollup();
--> statement-breakpoint
-- Devices already stored, counted from the devices themselves (as 0008 counted the other rollups).
INSERT INTO device_agent_day_counts (day, agent_id, device_class_code, stocked, shipped, installed)
SELECT e.day, coalesce(s.agent_id, 0), e.device_class_code, sum(e.stocked), sum(e.shipped), sum(e.installed)
FROM (
  SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, school_id, device_class_code, 1 AS stocked, 0 AS shipped, 0 AS installed FROM devices
  UNION ALL
  SELECT (shipped_at AT TIME ZONE 'Asia/Shanghai')::date, school_id, device_class_code, 0, 1, 0 FROM devices WHERE shipped_at IS NOT NULL
  UNION ALL
  SELECT (installed_at AT TIME ZONE 'Asia/Shanghai')::date, school_id, device_class_code, 0, 0, 1 FROM devices WHERE installed_at IS NOT NULL
) e
LEFT JOIN schools s ON s.id = e.school_id
GROUP BY 1, 2, 3;
