/** The parent's side of the platform (issue 28): what the app channel and the family modules call. */
export { serviceStatesOf, chargeItemsFor, bindReceivingParents, type HeldService, type ChargeItemOffer } from './service.js';
export { inboxOf, markNoticesRead, registerPushToken, type InboxNotice } from './inbox.js';
export { enqueueParentNotices } from './notices.js';
