/**
 * Per-user preferences of a list page (issue 11, "tables that remember"): how its table is laid out
 * (columns shown, their order, widths and pins, density, page size) and the named filter presets
 * ("my views"). Kept on the server per user and page, so they follow the user to another browser.
 * Every part is bounded: a page has a known number of columns, so a stored value never grows with use.
 * The schemas are in preference-schemas.ts.
 */

export const PREFERENCE_PATHS = {
  get: '/api/Preference/Get',
  saveTable: '/api/Preference/SaveTable',
  resetTable: '/api/Preference/ResetTable',
  saveView: '/api/Preference/SaveView',
  deleteView: '/api/Preference/DeleteView',
} as const;

/** A list's page key: the frame (route name) and the family it lists, e.g. `schoolManage.School`. */
export function preferencePageOf(frame: string, family: string): string {
  return `${frame}.${family}`;
}

/** More columns than any family declares; a key is a field name. */
export const MAX_PREFERENCE_COLUMNS = 120;
export const MAX_FILTER_VIEWS = 20;
export const MAX_VIEW_FILTERS = 40;
export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 1200;
/** A preset's filters, written out, stay below this: 20 presets of a page are at most 80 kB. */
export const MAX_VIEW_FILTERS_CHARS = 4000;
