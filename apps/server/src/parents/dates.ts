/** Calendar arithmetic on business dates ('YYYY-MM-DD', China time, which keeps no daylight saving). */

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The later of two dates; a missing one loses. */
export const laterDate = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : a > b ? a : b);

/** A `date` column as the drivers answer it (a string, or a Date at UTC midnight). */
export const dateText = (value: unknown): string | null => (value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));
