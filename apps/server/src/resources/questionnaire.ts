/**
 * Rules of a questionnaire: a forward window, an audience it can reach (an agent's only its own
 * schools), choice questions with 2–20 distinct options, text questions with none, and questions
 * fixed once answers exist — answers name questions and options by position.
 */
import {
  POSTER_AUDIENCE_SCHOOLS,
  QUESTION_OPTIONS_MAX,
  QUESTION_OPTIONS_MIN,
  QUESTION_OPTION_MAX_LENGTH,
  QUESTION_TYPE_TEXT,
  Questionnaire,
  questionOptionsOf,
} from '@campus/contract';
import { badRequest, msg, type FieldProblem } from '../platform/errors.js';
import type { Row } from './engine/context.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';
import { questionnaireRoutes } from './questionnaire-routes.js';
import { storedQuestions, type StoredQuestion } from './questionnaire-questions.js';

/** Field errors of the questions' options, on `questions.N.options`. */
function optionProblems(questions: Row[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  questions.forEach((question, index) => {
    const path = `questions.${index}.options`;
    const options = questionOptionsOf(question.options as string | undefined);
    if (Number(question.type) === QUESTION_TYPE_TEXT) {
      if (options.length > 0) problems.push({ path, ...msg('questionnaire.textHasOptions') });
      return;
    }
    if (options.length < QUESTION_OPTIONS_MIN || options.length > QUESTION_OPTIONS_MAX) {
      problems.push({ path, ...msg('questionnaire.optionsCount', { min: QUESTION_OPTIONS_MIN, max: QUESTION_OPTIONS_MAX }) });
      return;
    }
    if (options.some((option) => option.length > QUESTION_OPTION_MAX_LENGTH)) problems.push({ path, ...msg('questionnaire.optionTooLong', { max: QUESTION_OPTION_MAX_LENGTH }) });
    const twice = options.find((option, position) => options.indexOf(option) !== position);
    if (twice) problems.push({ path, ...msg('questionnaire.optionTwice', { option: twice }) });
  });
  return problems;
}

/** A question as compared for "unchanged": what answers depend on. */
const questionShape = (question: Row | StoredQuestion) =>
  JSON.stringify([String(question.title).trim(), Number(question.type), question.isRequired !== false, Number(question.type) === QUESTION_TYPE_TEXT ? [] : Array.isArray(question.options) ? question.options : questionOptionsOf(question.options as string | undefined)]);

export const questionnaireModule = defineFamilyModule(Questionnaire, {
  routes: [questionnaireRoutes],
  async beforeWrite(ctx, { op, values, existing }) {
    // An agent (or any account with a school scope) reaches only its own schools: it names them, and
    // the link reference refuses schools outside its scope.
    if (ctx.scope.kind !== 'all' && Number(valueAfter(values, existing, 'audience')) !== POSTER_AUDIENCE_SCHOOLS) {
      throw badRequest([{ path: 'audience', ...msg('questionnaire.agentAudience') }]);
    }
    const questions = values.questions as Row[] | undefined | null;
    if (questions) {
      const problems = optionProblems(questions);
      if (problems.length > 0) throw badRequest(problems);
      if (op === 'update' && Number(existing?.answerCount ?? 0) > 0) {
        const stored = await storedQuestions(ctx.db, Number(existing!.id));
        const isSame = stored.length === questions.length && stored.every((question, index) => questionShape(question) === questionShape(questions[index]!));
        if (!isSame) throw badRequest([{ path: 'questions', ...msg('questionnaire.questionsFixed') }]);
      }
    }
    // Answers add to the count; a new questionnaire starts at none (the field is read-only on the wire).
    return op === 'add' ? { ...values, answerCount: 0 } : values;
  },
});
