import { Questionnaire } from '@campus/contract';
import { index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { linkTable } from './link-table.js';
import { id, timestamptz } from './columns.js';
import { questionnaires, schools } from './resources.js';

/** The schools a questionnaire is meant for, when its audience is "chosen schools". */
export const questionnaireSchools = linkTable(Questionnaire.fields.schoolIds.link, { owner: () => questionnaires.id, target: () => schools.id });

/**
 * One respondent's answer to a questionnaire. The respondent's key is unique per questionnaire, so a
 * reload or a retried call is stored once; the school (the respondent's) puts the answer in scope.
 */
export const questionnaireAnswers = pgTable(
  'questionnaire_answers',
  {
    id: id(),
    questionnaireId: integer('questionnaire_id')
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    schoolId: integer('school_id').references(() => schools.id, { onDelete: 'set null' }),
    respondentKey: text('respondent_key').notNull(),
    /** QUESTIONNAIRE_CHANNEL: 1 the public link, 2 the parent app. */
    channel: smallint('channel').notNull(),
    answeredAt: timestamptz('answered_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('questionnaire_answers_respondent_unique').on(t.questionnaireId, t.respondentKey),
    index('questionnaire_answers_questionnaire_school_idx').on(t.questionnaireId, t.schoolId),
    index('questionnaire_answers_school_idx').on(t.schoolId),
  ],
);

/**
 * The answer to one question: one row per chosen option (`optionNo`) or one with the text. Kept
 * apart from the answer so results count options with one grouped read.
 */
export const questionnaireAnswerItems = pgTable(
  'questionnaire_answer_items',
  {
    id: id(),
    answerId: integer('answer_id')
      .notNull()
      .references(() => questionnaireAnswers.id, { onDelete: 'cascade' }),
    questionnaireId: integer('questionnaire_id').notNull(),
    questionNo: integer('question_no').notNull(),
    optionNo: integer('option_no'),
    text: text('text'),
  },
  (t) => [index('questionnaire_answer_items_answer_idx').on(t.answerId), index('questionnaire_answer_items_question_idx').on(t.questionnaireId, t.questionNo, t.optionNo)],
);
