import { Developer } from '@campus/contract';
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { linkTable } from './link-table.js';
import { timestamptz } from './columns.js';
import { developers, schools } from './resources.js';

/** The schools each developer may read through the Open API (Developer.schoolIds). */
export const developerSchools = linkTable(Developer.fields.schoolIds.link, { owner: () => developers.id, target: () => schools.id });

/**
 * Nonces of signed Open API calls, each accepted once per developer. Rows older than twice the allowed
 * clock skew can never match a fresh call again (its timestamp would be refused first), so they are purged.
 */
export const openApiNonces = pgTable(
  'open_api_nonces',
  {
    developerId: integer('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.developerId, t.nonce] }), index('open_api_nonces_developer_id_created_at_idx').on(t.developerId, t.createdAt)],
);
