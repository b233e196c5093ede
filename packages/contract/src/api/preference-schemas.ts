/** Schemas of the per-user preferences of a list page (see preferences.ts). */
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../constants.js';
import { messageText } from '../messages.js';
import { MAX_COLUMN_WIDTH, MAX_PREFERENCE_COLUMNS, MAX_VIEW_FILTERS, MAX_VIEW_FILTERS_CHARS, MIN_COLUMN_WIDTH } from './preferences.js';

/** Route names and family names are identifiers: anything else is not a page. */
export const preferencePageSchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}\.[A-Z][A-Za-z0-9]{0,63}$/);

const columnKeySchema = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/);

export const tableDensitySchema = z.enum(['large', 'middle', 'small']);
export type TableDensity = z.infer<typeof tableDensitySchema>;

export const columnPinSchema = z.enum(['left', 'right']);
export type ColumnPin = z.infer<typeof columnPinSchema>;

/** How a user laid out one page's table. Columns not named keep the declaration's order and width. */
export const tableSettingsSchema = z.strictObject({
  hidden: z.array(columnKeySchema).max(MAX_PREFERENCE_COLUMNS).default([]),
  /** Column keys in the order shown; keys the page no longer has are ignored, new ones go last. */
  order: z.array(columnKeySchema).max(MAX_PREFERENCE_COLUMNS).default([]),
  widths: z
    .record(columnKeySchema, z.number().int().min(MIN_COLUMN_WIDTH).max(MAX_COLUMN_WIDTH))
    .refine((widths) => Object.keys(widths).length <= MAX_PREFERENCE_COLUMNS, { message: messageText('validation.tooManyItems', { max: MAX_PREFERENCE_COLUMNS }) })
    .default({}),
  pinned: z
    .record(columnKeySchema, columnPinSchema)
    .refine((pinned) => Object.keys(pinned).length <= MAX_PREFERENCE_COLUMNS, { message: messageText('validation.tooManyItems', { max: MAX_PREFERENCE_COLUMNS }) })
    .default({}),
  density: tableDensitySchema.default('middle'),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export type TableSettings = z.infer<typeof tableSettingsSchema>;

/** A filter value as Search receives it: a scalar, or a list for `in` filters. */
const viewFilterValueSchema = z.union([
  z.string().max(200),
  z.number().finite(),
  z.boolean(),
  z.array(z.union([z.string().max(200), z.number().finite()])).max(50),
]);

export const viewFiltersSchema = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/), viewFilterValueSchema)
  .refine((filters) => Object.keys(filters).length <= MAX_VIEW_FILTERS, { message: messageText('validation.tooManyItems', { max: MAX_VIEW_FILTERS }) })
  .refine((filters) => JSON.stringify(filters).length <= MAX_VIEW_FILTERS_CHARS, { message: messageText('validation.tooLong', { max: MAX_VIEW_FILTERS_CHARS }) });
export type ViewFilters = z.infer<typeof viewFiltersSchema>;

/** A named filter preset ("my view"): the filters Search was sent when it was saved. */
export const filterViewSchema = z.strictObject({
  name: z.string().trim().min(1).max(40),
  filters: viewFiltersSchema,
});
export type FilterView = z.infer<typeof filterViewSchema>;

export const preferenceQuerySchema = z.strictObject({ page: preferencePageSchema });
export const saveTableBodySchema = z.strictObject({ page: preferencePageSchema, table: tableSettingsSchema });
export const resetTableBodySchema = z.strictObject({ page: preferencePageSchema });
export const saveViewBodySchema = z.strictObject({ page: preferencePageSchema, view: filterViewSchema });
export const deleteViewBodySchema = z.strictObject({ page: preferencePageSchema, name: z.string().trim().min(1).max(40) });

/** One page's preferences: no table settings until the user changes one (or after a reset). */
export const pagePreferencesSchema = z.object({
  page: z.string(),
  table: tableSettingsSchema.nullable(),
  views: z.array(filterViewSchema),
});
export type PagePreferences = z.infer<typeof pagePreferencesSchema>;
