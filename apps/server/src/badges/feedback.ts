import { FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { liveFeedbacks, userFeedbacks } from '../db/schema/index.js';
import { pendingRowsBadge } from '../platform/badges.js';

/** Parents' feedback in scope nobody has answered yet (userBack's badge). */
export const feedbackUnansweredBadge = pendingRowsBadge('feedbackUnanswered', userFeedbacks, userFeedbacks.schoolId, eq(userFeedbacks.state, FEEDBACK_UNANSWERED_STATE));

/** Live-class feedback in scope still to be handled (liveFeedBack's badge). */
export const liveFeedbackPendingBadge = pendingRowsBadge('liveFeedbackPending', liveFeedbacks, liveFeedbacks.schoolId, eq(liveFeedbacks.state, LIVE_FEEDBACK_PENDING_STATE));
