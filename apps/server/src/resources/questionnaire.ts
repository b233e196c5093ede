/**
 * Rules of a questionnaire: an audience it can reach (an agent's only its own schools) and questions
 * fixed once answers exist — answers name questions and options by position. Its window and the
 * options of its questions (2–20 distinct for a choice, none for a text) are declared.
 */
import { POSTER_AUDIENCE_SCHOOLS, QUESTION_TYPE_TEXT, Questionnaire, questionOptionsOf } from '@campus/contract';
import { badRequest, msg } from '../platform/errors.js';
import type { Row } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';
import { questionnaireCalls } from './questionnaire-routes.js';
import { storedQuestions, type StoredQuestion } from './questionnaire-questions.js';

/** A question as compared for "unchanged": what answers depend on. */
const questionShape = (question: Row | StoredQuestion) =>
  JSON.stringify([String(question.title).trim(), Number(question.type), question.isRequired !== false, Number(question.type) === QUESTION_TYPE_TEXT ? [] : Array.isArray(question.options) ? question.options : questionOptionsOf(question.options as string | undefined)]);

export const questionnaireModule = defineFamilyModule(Questionnaire, {
  routes: questionnaireCalls,
  async beforeWrite(ctx, { op, values, existing }) {
    // An agent (or any account with a school scope) reaches only its own schools: it names them, and
    // the link reference refuses schools outside its scope.
    if (ctx.scope.kind !== 'all' && Number(valueAfter(values, existing, 'audience')) !== POSTER_AUDIENCE_SCHOOLS) {
      throw badRequest([{ path: 'audience', ...msg('questionnaire.agentAudience') }]);
    }
    const questions = values.questions as Row[] | undefined | null;
    if (questions && op === 'update' && Number(existing?.answerCount ?? 0) > 0) {
      const stored = await storedQuestions(ctx.db, Number(existing!.id));
      const isSame = stored.length === questions.length && stored.every((question, index) => questionShape(question) === questionShape(questions[index]!));
      if (!isSame) throw badRequest([{ path: 'questions', ...msg('questionnaire.questionsFixed') }]);
    }
    // Answers add to the count; a new questionnaire starts at none (the field is read-only on the wire).
    return op === 'add' ? { ...values, answerCount: 0 } : values;
  },
});
