/** A questionnaire's stored questions, as its rules, its answers and its results read them. */
import { QUESTION_TYPE_TEXT, questionOptionsOf } from '@campus/contract';
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { questionnaireQuestions } from '../db/schema/index.js';

/** One stored question, as answers are checked against it. */
export interface StoredQuestion {
  questionNo: number;
  title: string;
  type: number;
  isRequired: boolean;
  options: string[];
}

/** The questions of a questionnaire in order, their options split into a list. */
export async function storedQuestions(db: Executor, questionnaireId: number): Promise<StoredQuestion[]> {
  const rows = await db
    .select({ lineNo: questionnaireQuestions.lineNo, title: questionnaireQuestions.title, type: questionnaireQuestions.type, isRequired: questionnaireQuestions.isRequired, options: questionnaireQuestions.options })
    .from(questionnaireQuestions)
    .where(eq(questionnaireQuestions.questionnaireId, questionnaireId))
    .orderBy(asc(questionnaireQuestions.lineNo));
  return rows.map((row) => ({
    questionNo: Number(row.lineNo),
    title: String(row.title),
    type: Number(row.type),
    isRequired: row.isRequired !== false,
    options: Number(row.type) === QUESTION_TYPE_TEXT ? [] : questionOptionsOf(row.options as string | null),
  }));
}
