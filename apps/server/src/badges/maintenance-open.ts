import { OPEN_TICKET_STATES } from '@campus/contract';
import { inArray } from 'drizzle-orm';
import { maintenanceTickets } from '../db/schema/index.js';
import { pendingRowsBadge } from '../platform/badges.js';

/** Maintenance tickets in scope still to be worked on: open, assigned or in progress. */
export const maintenanceOpenBadge = pendingRowsBadge('maintenanceOpen', maintenanceTickets, maintenanceTickets.schoolId, inArray(maintenanceTickets.state, [...OPEN_TICKET_STATES]));
