import { devices } from '../db/schema/index.js';
import { registerPendingRowsBadge } from '../platform/badges.js';
import { licensePendingCondition } from '../resources/device.js';

/** Devices in scope whose product model needs a licence and that have none set yet (the `licensePending` filter). */
registerPendingRowsBadge('licenseUnset', devices, devices.schoolId, licensePendingCondition(devices));
