-- A terminal copies its device's school and serial number (they scope its rows and name it): kept in
-- step here, in the transaction of any change to the device, whoever makes it (the device page, an
-- import, a delivery, an installation). A device leaving every school leaves its terminal with none:
-- the intake then refuses it, and only company users see it, until the device is installed again.
CREATE FUNCTION devices_keep_terminal_copies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE terminals SET school_id = NEW.school_id, serial_number = NEW.serial_number
   WHERE device_id = NEW.id AND (school_id IS DISTINCT FROM NEW.school_id OR serial_number IS DISTINCT FROM NEW.serial_number);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_keep_terminal_copies AFTER UPDATE OF school_id, serial_number ON devices
  FOR EACH ROW WHEN (OLD.school_id IS DISTINCT FROM NEW.school_id OR OLD.serial_number IS DISTINCT FROM NEW.serial_number)
  EXECUTE FUNCTION devices_keep_terminal_copies();
--> statement-breakpoint
-- Terminals written before this migration whose device has moved since.
UPDATE terminals t SET school_id = d.school_id, serial_number = d.serial_number
  FROM devices d
 WHERE d.id = t.device_id AND (t.school_id IS DISTINCT FROM d.school_id OR t.serial_number IS DISTINCT FROM d.serial_number);
