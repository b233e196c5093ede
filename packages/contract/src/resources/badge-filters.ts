/**
 * The rows a home-page badge counts, as the filters of its page (issue 11): a pending link opens the
 * list filtered to exactly those rows. Only badges whose count is one declared filter of the page's
 * family are here; the others open the page unfiltered. `badge-filters.test.ts` checks each filter
 * against the page's declaration, so renaming a field cannot break a link silently.
 */
import type { BadgeKey } from '../menu.js';
import { REFUND_APPLIED } from './refund.js';

export type BadgeFilterValue = string | number | boolean;

export const BADGE_PENDING_FILTERS: Partial<Record<BadgeKey, Readonly<Record<string, BadgeFilterValue>>>> = {
  /** Schools whose licence setting is still "not set" (licenseKeyRequired 0). */
  schoolLicenseUnset: { licenseKeyRequired: 0 },
  /** Refund applications waiting for an operator. */
  refundApplied: { state: REFUND_APPLIED },
  /** Fever alerts nobody has acknowledged. */
  feverUnacknowledged: { acknowledged: false },
};
