/** Feedback waiting for an answer (the time the parent was answered is kept with the reply: the transition's `stamps`). */
import { LiveFeedback, UserFeedback, FEEDBACK_UNANSWERED_STATE, LIVE_FEEDBACK_PENDING_STATE } from '@campus/contract';
import { defineFamilyModule } from './engine/modules.js';

export const userFeedbackModule = defineFamilyModule(UserFeedback, {
  // Parents' feedback nobody has answered yet (userBack's badge).
  pending: { badge: 'feedbackUnanswered', where: { state: FEEDBACK_UNANSWERED_STATE } },
});

export const liveFeedbackModule = defineFamilyModule(LiveFeedback, {
  // Live-class feedback still to be handled (liveFeedBack's badge).
  pending: { badge: 'liveFeedbackPending', where: { state: LIVE_FEEDBACK_PENDING_STATE } },
});
