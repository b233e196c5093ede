import { ExternalUser, type SellerPosition, type UserType } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, type AnyPgColumn, integer, uniqueIndex } from 'drizzle-orm/pg-core';
import { linkTable } from './link-table.js';
import { id, rowStamps, timestamptz } from './columns.js';
import { salesTeams } from './sales.js';
import { schools } from './resources.js';

/** Every account of the console; `type` is one of USER_TYPES of the contract. */
export const users = pgTable(
  'users',
  {
    id: id(),
    loginName: text('login_name').notNull(),
    /** scrypt of the MD5 hex the client sends; see platform/passwords.ts for the format. */
    passwordHash: text('password_hash').notNull(),
    type: text('type').$type<UserType>().notNull(),
    name: text('name').notNull(),
    phoneNum: text('phone_num'),
    company: text('company'),
    sellerPosition: text('seller_position').$type<SellerPosition>(),
    servicePhone1: text('service_phone1'),
    servicePhone2: text('service_phone2'),
    servicePhone3: text('service_phone3'),
    agentMktMrchId: text('agent_mkt_mrch_id'),
    agentMktMrchNm: text('agent_mkt_mrch_nm'),
    email: text('email'),
    /** For a child account: the agent it belongs to. */
    parentId: integer('parent_id').references((): AnyPgColumn => users.id, { onDelete: 'restrict' }),
    salesTeamId: integer('sales_team_id').references((): AnyPgColumn => salesTeams.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    /** Code 601 at login until the account verifies its phone and sets a new password. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    refundPasswordHash: text('refund_password_hash'),
    /** Wrong refund passwords in a row; the fifth locks refunds for 10 minutes (platform/refund-password.ts). */
    refundPasswordFailures: integer('refund_password_failures').notNull().default(0),
    refundPasswordLockedUntil: timestamptz('refund_password_locked_until'),
    lastLoginAt: timestamptz('last_login_at'),
    ...rowStamps(),
  },
  (table) => [
    uniqueIndex('users_login_name_unique').on(table.loginName),
    index('users_type_idx').on(table.type),
    index('users_parent_id_idx').on(table.parentId),
    index('users_sales_team_id_idx').on(table.salesTeamId),
    check('users_type_check', sql`${table.type} in ('company', 'sales', 'agent', 'external', 'child')`),
    check('users_seller_position_check', sql`${table.sellerPosition} is null or ${table.sellerPosition} in ('leader', 'member')`),
    check('users_child_has_parent_check', sql`${table.type} <> 'child' or ${table.parentId} is not null`),
  ],
);

/** Schools an external user is bound to (its whole data scope). */
export const userSchools = linkTable(ExternalUser.fields.schoolIds.link, { owner: () => users.id, target: () => schools.id }, rowStamps());
