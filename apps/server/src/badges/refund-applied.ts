import { REFUND_APPLIED } from '@campus/contract';
import { and, count, eq } from 'drizzle-orm';
import { refunds } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Refund applications in scope waiting for an operator (refundManage's badge). */
registerBadge('refundApplied', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(refunds)
    .where(and(eq(refunds.state, REFUND_APPLIED), scopeCondition(scope, refunds.schoolId)));
  return row?.total ?? 0;
});
