import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, rowStamps } from './columns.js';
import { users } from './users.js';

/**
 * Frames and button values granted to a user type (the defaults) or to one user (an override that
 * replaces the type's grant as a whole). One row per subject and frame.
 */
export const grants = pgTable(
  'grants',
  {
    id: id(),
    subjectType: text('subject_type').$type<'type' | 'user'>().notNull(),
    userType: text('user_type'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    frameId: integer('frame_id').notNull(),
    buttons: text('buttons').array().notNull().default(sql`'{}'::text[]`),
    ...rowStamps(),
  },
  (table) => [
    uniqueIndex('grants_type_frame_unique').on(table.userType, table.frameId).where(sql`${table.subjectType} = 'type'`),
    uniqueIndex('grants_user_frame_unique').on(table.userId, table.frameId).where(sql`${table.subjectType} = 'user'`),
    check(
      'grants_subject_check',
      sql`(${table.subjectType} = 'type' and ${table.userType} is not null and ${table.userId} is null)
        or (${table.subjectType} = 'user' and ${table.userId} is not null and ${table.userType} is null)`,
    ),
  ],
);
