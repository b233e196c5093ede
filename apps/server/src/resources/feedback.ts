/** Feedback replies: the time the parent was answered is kept with the reply. */
import { LiveFeedback, UserFeedback } from '@campus/contract';
import { defineFamilyHooks } from './engine/hooks.js';

export const userFeedbackHooks = defineFamilyHooks(UserFeedback, {
  transitions: {
    async Reply() {
      return { repliedAt: new Date() };
    },
  },
});

export const liveFeedbackHooks = defineFamilyHooks(LiveFeedback, {});
