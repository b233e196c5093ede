/** What the signed intake keeps beside the terminals: the nonces it has seen, the serials it misses, the periods each was offline. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
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

/**
 * The periods each terminal was offline: opened by the offline sweep when a terminal's `offline_at`
 * passes (started = that instant, exact), closed by a later sweep once the terminal called again
 * (ended = its `online_since`, the first call after the silence, exact). `ended_at` is null while it
 * lasts. The school is the terminal's at the start (the ops daily report counts it there). A terminal's
 * periods never overlap: a sweep closes before it opens.
 */
export const terminalOfflinePeriods = pgTable(
  'terminal_offline_periods',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    terminalId: integer('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
    schoolId: integer('school_id'),
    startedAt: timestamptz('started_at').notNull(),
    endedAt: timestamptz('ended_at'),
  },
  (t) => [
    // Two instances sweeping at once insert a period once.
    uniqueIndex('terminal_offline_periods_terminal_started_idx').on(t.terminalId, t.startedAt),
    // The ops daily report: a school's periods by the day they started or were still running.
    index('terminal_offline_periods_school_started_idx').on(t.schoolId, t.startedAt),
    // The Overview's "online yesterday at this time": the periods holding one instant, without reading the others.
    index('terminal_offline_periods_during_idx').using('gist', sql`tstzrange(${t.startedAt}, ${t.endedAt})`),
    // The sweep's closing pass reads the open ones only.
    index('terminal_offline_periods_open_idx').on(t.terminalId).where(sql`${t.endedAt} is null`),
  ],
);
