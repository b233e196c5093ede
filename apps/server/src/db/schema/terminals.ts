/** What the signed intake keeps beside the terminals: the nonces it has seen and the serials it misses. */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { terminals } from './resources.js';

/**
 * Nonces of accepted intake calls, per terminal: a replay within the clock-skew window finds its
 * nonce here and is refused. Written in the transaction of the call's data, so a call that fails
 * leaves its nonce free for the retry. Rows older than the window are purged (terminals/nonces.ts).
 */
export const terminalNonces = pgTable(
  'terminal_nonces',
  {
    terminalId: integer('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    seenAt: timestamptz('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.nonce] }), index('terminal_nonces_seen_at_idx').on(t.seenAt)],
);

/**
 * Ranges of a terminal's event serials never received (inclusive): opened when an event arrives
 * beyond the highest serial + 1, shrunk or split as the missing events arrive, answered to the
 * device as `resendEvents` at its heartbeat.
 */
export const terminalSerialGaps = pgTable(
  'terminal_serial_gaps',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    terminalId: integer('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
    fromSerial: integer('from_serial').notNull(),
    toSerial: integer('to_serial').notNull(),
  },
  (t) => [index('terminal_serial_gaps_terminal_from_idx').on(t.terminalId, t.fromSerial)],
);
