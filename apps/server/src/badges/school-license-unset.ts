import { and, count, eq } from 'drizzle-orm';
import { schools } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Schools in scope whose licence setting is still "not set" (licenseKeyRequired 0). */
registerBadge('schoolLicenseUnset', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(schools)
    .where(and(eq(schools.licenseKeyRequired, 0), scopeCondition(scope, schools.id)));
  return row?.total ?? 0;
});
