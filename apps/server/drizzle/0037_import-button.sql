-- The Excel import (button value `import`) of studentInfo, parentUser, teacherInfo, pickupInfo,
-- schoolManage and deviceInformation: grants kept before it existed get it wherever they hold `add`,
-- the way the default grants give it (docs/decisions.md "Import is granted with Add").
UPDATE "grants"
SET "buttons" = array_append("buttons", 'import'), "updated_at" = now()
WHERE "frame_id" IN (202, 203, 204, 205, 301, 502)
  AND 'add' = ANY("buttons")
  AND NOT ('import' = ANY("buttons"));
