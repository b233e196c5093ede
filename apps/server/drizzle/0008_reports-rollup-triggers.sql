-- The device reports' rollups, kept by the database in the transaction of every write to devices,
-- whoever writes (the engine, an order's shipping, a bulk load): a rollup can never be stale.
-- docs/decisions.md "Device reports read rollups".

-- When a device first leaves stock (delivered or installed) and first reaches "installed".
CREATE FUNCTION devices_stamp_life_times() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state IN (2, 3) AND NEW.shipped_at IS NULL THEN NEW.shipped_at := now(); END IF;
  IF NEW.state = 3 AND NEW.installed_at IS NULL THEN NEW.installed_at := now(); END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_stamp_life_times BEFORE INSERT OR UPDATE OF state ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_stamp_life_times();
--> statement-breakpoint
-- Adds the statement's new rows and subtracts its old rows, grouped: one upsert per key touched,
-- none when a statement changes nothing the rollups count (sum of signs 0).
CREATE FUNCTION devices_keep_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_rows'
    ELSE 'SELECT *, 1 AS sign FROM new_rows UNION ALL SELECT *, -1 AS sign FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH changes AS (%s)
    INSERT INTO device_state_counts AS c (school_id, device_class_code, state, devices)
    SELECT coalesce(school_id, 0), device_class_code, state, sum(sign)
    FROM changes GROUP BY 1, 2, 3 HAVING sum(sign) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (school_id, device_class_code, state) DO UPDATE SET devices = c.devices + excluded.devices
  $q$, changes);
  EXECUTE format($q$
    WITH changes AS (%s), events AS (
      SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, coalesce(school_id, 0) AS school_id, device_class_code,
             sign AS stocked, 0 AS shipped, 0 AS installed FROM changes
      UNION ALL
      SELECT (shipped_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(school_id, 0), device_class_code, 0, sign, 0
      FROM changes WHERE shipped_at IS NOT NULL
      UNION ALL
      SELECT (installed_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(school_id, 0), device_class_code, 0, 0, sign
      FROM changes WHERE installed_at IS NOT NULL
    )
    INSERT INTO device_day_counts AS c (day, school_id, device_class_code, stocked, shipped, installed)
    SELECT day, school_id, device_class_code, sum(stocked), sum(shipped), sum(installed)
    FROM events GROUP BY 1, 2, 3
    HAVING sum(stocked) <> 0 OR sum(shipped) <> 0 OR sum(installed) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (day, school_id, device_class_code) DO UPDATE
      SET stocked = c.stocked + excluded.stocked, shipped = c.shipped + excluded.shipped, installed = c.installed + excluded.installed
  $q$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_rollups_on_insert AFTER INSERT ON devices
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_rollups();
--> statement-breakpoint
CREATE TRIGGER devices_rollups_on_update AFTER UPDATE ON devices
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_rollups();
--> statement-breakpoint
CREATE TRIGGER devices_rollups_on_delete AFTER DELETE ON devices
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION devices_keep_rollups();
--> statement-breakpoint
CREATE FUNCTION devices_clear_rollups() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM device_state_counts;
  DELETE FROM device_day_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_rollups_on_truncate AFTER TRUNCATE ON devices
  FOR EACH STATEMENT EXECUTE FUNCTION devices_clear_rollups();
--> statement-breakpoint
-- Devices written before this migration: counted as they are (their shipping and installation
-- times are unknown, so they count as stocked and in their state, not as shipped or installed).
INSERT INTO device_state_counts (school_id, device_class_code, state, devices)
SELECT coalesce(school_id, 0), device_class_code, state, count(*) FROM devices GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO device_day_counts (day, school_id, device_class_code, stocked)
SELECT (created_at AT TIME ZONE 'Asia/Shanghai')::date, coalesce(school_id, 0), device_class_code, count(*) FROM devices GROUP BY 1, 2, 3;
