import { and, count, eq, isNull } from 'drizzle-orm';
import { deviceClasses, devices } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Devices in scope whose product model needs a licence and that have none set yet. */
registerBadge('licenseUnset', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(devices)
    .innerJoin(deviceClasses, eq(deviceClasses.code, devices.deviceClassCode))
    .where(and(eq(deviceClasses.licenseEnabled, true), isNull(devices.licenseKey), scopeCondition(scope, devices.schoolId)));
  return row?.total ?? 0;
});
