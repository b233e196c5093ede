/**
 * The rows a home-page badge counts, as the filters of the page it links to (issue 11): a pending
 * link opens the list filtered to exactly those rows. Keyed by page, because one badge may show on
 * pages of different families (licenseUnset counts devices, yet also shows on the licence-code pages,
 * which open unfiltered). `badge-filters.test.ts` checks each filter against the page's declaration,
 * so renaming a field cannot break a link silently; the server's pending-links test checks that the
 * filtered list holds as many rows as the badge counts.
 */
import { OPEN_TICKET_STATES } from './maintenance.js';
import { REFUND_APPLIED } from './refund.js';

export type BadgeFilterValue = string | number | boolean | readonly (string | number)[];

export const PENDING_LIST_FILTERS: Partial<Record<string, Readonly<Record<string, BadgeFilterValue>>>> = {
  /** Schools whose licence setting is still "not set" (licenseKeyRequired 0). */
  schoolManage: { licenseKeyRequired: 0 },
  /** Devices whose product model needs a licence and that have none. */
  deviceInformation: { licensePending: true },
  /** Refund applications waiting for an operator. */
  refundManage: { state: REFUND_APPLIED },
  /** Fever alerts nobody has acknowledged. */
  userTemperature: { acknowledged: false },
  /** Tickets still to be worked on: open, assigned or in progress. */
  equipmentMaintenance: { state: OPEN_TICKET_STATES },
  /** Merchants without a split rule: their payments all stay with the company. */
  schoolMerchantsManage: { splitRuleSet: false },
};
