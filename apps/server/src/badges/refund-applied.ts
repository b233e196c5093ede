import { REFUND_APPLIED } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { refunds } from '../db/schema/index.js';
import { pendingRowsBadge } from '../platform/badges.js';

/** Refund applications in scope waiting for an operator (refundManage's badge). */
export const refundAppliedBadge = pendingRowsBadge('refundApplied', refunds, refunds.schoolId, eq(refunds.state, REFUND_APPLIED));
