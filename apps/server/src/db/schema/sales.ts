import { SalesTeam } from '@campus/contract';
import { linkTable } from './link-table.js';
import { index, integer, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { id, rowStamps } from './columns.js';
import { salesAreas } from './resources.js';
import { users } from './users.js';

/** A sales team; its leader sees the schools of the whole team. */
export const salesTeams = pgTable(
  'sales_teams',
  {
    id: id(),
    name: text('name').notNull(),
    salesAreaId: integer('sales_area_id').references((): AnyPgColumn => salesAreas.id, { onDelete: 'restrict' }),
    leaderId: integer('leader_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    ...rowStamps(),
  },
  (table) => [
    uniqueIndex('sales_teams_name_unique').on(table.name),
    index('sales_teams_leader_id_idx').on(table.leaderId),
    index('sales_teams_sales_area_id_idx').on(table.salesAreaId),
  ],
);

/** The sellers of a team with their level ("levels of sellers", SEED-SPEC section 3). */
export const salesTeamMembers = linkTable(
  SalesTeam.fields.memberIds.link,
  { owner: () => salesTeams.id, target: () => users.id },
  { level: integer('level').notNull().default(1), ...rowStamps() },
);
