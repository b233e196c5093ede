/** Feedback replies: the time the parent was answered is kept with the reply. */
import { LiveFeedback, UserFeedback, FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE } from '@campus/contract';
import { defineFamilyModule } from './engine/modules.js';
import { eq } from 'drizzle-orm';
import { liveFeedbacks, userFeedbacks } from '../db/schema/index.js';
import { pendingRowsBadge } from '../platform/badges.js';

/** Parents' feedback in scope nobody has answered yet (userBack's badge). */
const feedbackUnansweredBadge = pendingRowsBadge('feedbackUnanswered', userFeedbacks, userFeedbacks.schoolId, eq(userFeedbacks.state, FEEDBACK_UNANSWERED_STATE));

/** Live-class feedback in scope still to be handled (liveFeedBack's badge). */
const liveFeedbackPendingBadge = pendingRowsBadge('liveFeedbackPending', liveFeedbacks, liveFeedbacks.schoolId, eq(liveFeedbacks.state, LIVE_FEEDBACK_PENDING_STATE));

export const userFeedbackModule = defineFamilyModule(UserFeedback, {
  badges: [feedbackUnansweredBadge],
  transitions: {
    async Reply() {
      return { repliedAt: new Date() };
    },
  },
});

export const liveFeedbackModule = defineFamilyModule(LiveFeedback, {
  badges: [liveFeedbackPendingBadge],
});
