import { FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE } from '@campus/contract';
import { and, count, eq } from 'drizzle-orm';
import { liveFeedbacks, userFeedbacks } from '../db/schema/index.js';
import { registerBadge } from '../platform/badges.js';
import { scopeCondition } from '../platform/scope.js';

/** Parents' feedback in scope nobody has answered yet (userBack's badge). */
registerBadge('feedbackUnanswered', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(userFeedbacks)
    .where(and(eq(userFeedbacks.state, FEEDBACK_UNANSWERED_STATE), scopeCondition(scope, userFeedbacks.schoolId)));
  return row?.total ?? 0;
});

/** Live-class feedback in scope still to be handled (liveFeedBack's badge). */
registerBadge('liveFeedbackPending', async ({ db, scope }) => {
  const [row] = await db
    .select({ total: count() })
    .from(liveFeedbacks)
    .where(and(eq(liveFeedbacks.state, LIVE_FEEDBACK_PENDING_STATE), scopeCondition(scope, liveFeedbacks.schoolId)));
  return row?.total ?? 0;
});
