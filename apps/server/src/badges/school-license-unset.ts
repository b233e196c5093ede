import { eq } from 'drizzle-orm';
import { schools } from '../db/schema/index.js';
import { pendingRowsBadge } from '../platform/badges.js';

/** Schools in scope whose licence setting is still "not set" (licenseKeyRequired 0). */
export const schoolLicenseUnsetBadge = pendingRowsBadge('schoolLicenseUnset', schools, schools.id, eq(schools.licenseKeyRequired, 0));
