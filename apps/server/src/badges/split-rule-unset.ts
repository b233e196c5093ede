import { serviceConfigs } from '../db/schema/index.js';
import { registerPendingRowsBadge } from '../platform/badges.js';
import { splitRuleMissingCondition } from '../resources/finance.js';

/** Schools in scope with a service config but no split rule yet (the `splitRuleSet: false` filter): their payments all stay with the company. */
registerPendingRowsBadge('splitRuleUnset', serviceConfigs, serviceConfigs.schoolId, splitRuleMissingCondition(serviceConfigs));
