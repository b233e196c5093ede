/** Feedback replies: the time the parent was answered is kept with the reply. */
import { LiveFeedback, UserFeedback, FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';

export const userFeedbackModule = defineFamilyModule(UserFeedback, {
  // Parents' feedback nobody has answered yet (userBack's badge).
  pending: { badge: 'feedbackUnanswered', where: (table) => eq(columnOf(table, 'state'), FEEDBACK_UNANSWERED_STATE) },
  transitions: {
    async Reply(ctx) {
      return { repliedAt: ctx.clock.now() };
    },
  },
});

export const liveFeedbackModule = defineFamilyModule(LiveFeedback, {
  // Live-class feedback still to be handled (liveFeedBack's badge).
  pending: { badge: 'liveFeedbackPending', where: (table) => eq(columnOf(table, 'state'), LIVE_FEEDBACK_PENDING_STATE) },
});
