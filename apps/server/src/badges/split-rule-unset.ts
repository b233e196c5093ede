import { sql } from 'drizzle-orm';
import { serviceConfigSplitRules, serviceConfigs } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Schools in scope with a service config but no split rule yet: their payments all stay with the company. */
registerBadge('splitRuleUnset', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(serviceConfigs)
    .where(sql`${scopeCondition(scope, serviceConfigs.schoolId)} and not exists (select 1 from ${serviceConfigSplitRules} r where r.service_config_id = ${serviceConfigs.id})`);
  return Number(row?.total ?? 0);
});
