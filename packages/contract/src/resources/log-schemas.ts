/** The Search of a log family (`mode: 'log'`): newest first, paged by key, within a time range. */
import { z } from 'zod';
import { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../constants.js';
import type { ResourceDef } from './define.js';
import { searchSchemaOf } from './schemas.js';
import { idSchema } from '../integer-schemas.js';
import { builtOnce } from './built-once.js';

/** Days a log's time range covers when the caller gives none. */
export const DEFAULT_LOG_DAYS = 7;

/** Whether a family is a read-only log. */
export const isLogFamily = (def: ResourceDef): boolean => def.mode === 'log';

/**
 * Body of POST /api/{LogFamily}/Search. `cursor` (from a previous answer's `nextCursor` or
 * `prevCursor`) continues from a row, at the cost of page 1; without it `pageIndex` reads the
 * first pages by offset. The order is fixed (time, then id, newest first), so no sort fields.
 */
export const logSearchSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  const { sortField: _sortField, sortOrder: _sortOrder, ...shape } = searchSchemaOf(def).shape;
  return z.object({
    ...shape,
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    cursor: z.string().max(200).optional(),
  });
});

/** Body of POST /api/{LogFamily}/Hide: the rows to hide. */
export const logHideSchema = z.object({ ids: z.array(idSchema).min(1).max(500) });

/** The answer of a log Search: no count (it would cost more than the page), but whether more rows follow. */
export interface LogSearchAnswer<Row = Record<string, unknown>> {
  items: Row[];
  /** Rows older than the last one exist in the range. */
  hasMore: boolean;
  /** Continues with the next (older) page; null on the last page. */
  nextCursor: string | null;
  /** Goes back to the previous (newer) page; null on the first page. */
  prevCursor: string | null;
  /** The time range applied (ISO), the default one when the caller gave none. */
  range: { from: string | null; to: string | null };
}
