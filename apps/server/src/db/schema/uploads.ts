import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * Who uploaded each stored file, as the scope it was uploaded in (`scopeOwnerKey`): a write may put
 * a file on a row only when it was uploaded in the writer's scope, so one agent cannot have another
 * agent's file signed afresh by naming its key (company staff may name any file).
 */
export const uploadedFiles = pgTable('uploaded_files', {
  /** The storage key `<yyyy>/<mm>/<random>.<ext>`, as rows store it after `/uploads/`. */
  key: text('key').primaryKey(),
  scopeKey: text('scope_key').notNull(),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
  /** Bytes stored and their SHA-256 (hex), measured while the upload streamed in; absent on files stored before they were kept. */
  size: bigint('size', { mode: 'number' }),
  sha256: text('sha256'),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});
