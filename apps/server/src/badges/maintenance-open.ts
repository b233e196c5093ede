import { OPEN_TICKET_STATES } from '@campus/contract';
import { and, count, inArray } from 'drizzle-orm';
import { maintenanceTickets } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Maintenance tickets in scope still to be worked on: open, assigned or in progress. */
registerBadge('maintenanceOpen', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(maintenanceTickets)
    .where(and(inArray(maintenanceTickets.state, [...OPEN_TICKET_STATES]), scopeCondition(scope, maintenanceTickets.schoolId)));
  return row?.total ?? 0;
});
