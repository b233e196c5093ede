/** Feedback replies: the time the parent was answered is kept with the reply. */
import { LiveFeedback, UserFeedback } from '@campus/contract';
import { defineFamilyModule } from './engine/modules.js';
import { feedbackUnansweredBadge, liveFeedbackPendingBadge } from '../badges/feedback.js';

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
