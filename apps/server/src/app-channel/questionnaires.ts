/**
 * The questionnaire's app answers, on the channel: the respondent is the signed-in parent (one answer
 * per parent and questionnaire, keyed `parent:<id>`), and only questionnaires open today whose
 * audience reaches one of the parent's children's schools are listed, shown or answered (404 else).
 * The answer counts for the first such school, so it lies in that school's results.
 */
import { QUESTIONNAIRE_CHANNEL_APP, Questionnaire, formatBusinessDate, type AppAnswerQuestionnaire } from '@campus/contract';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { questionnaireAnswers, questionnaires } from '../db/schema/index.js';
import { awardQuestionnairePoints } from '../mall/points-earning.js';
import { notFound } from '../platform/errors.js';
import { audienceReachesSchool } from '../resources/engine/audience.js';
import { PARENT_RESPONDENT_PREFIX, submitAnswer } from '../resources/questionnaire-answers.js';
import type { AppParent } from './sessions.js';

const LIST_LIMIT = 50;

/** The respondent key of a parent's answers: one per parent, never one a link respondent may send. */
const respondentKeyOf = (parent: AppParent) => `${PARENT_RESPONDENT_PREFIX}${parent.id}`;

/** Questionnaires open today for the parent's schools, each with the first of its schools it reaches (and whether the parent answered). */
export async function openQuestionnairesFor(db: Executor, parent: AppParent, now: Date, onlyId?: number) {
  const today = formatBusinessDate(now);
  const found = new Map<number, { id: number; title: string; endDate: string; schoolId: number; answered: boolean }>();
  for (const schoolId of parent.schoolIds) {
    const reaches = audienceReachesSchool(Questionnaire, schoolId);
    const rows = await db
      .select({
        id: questionnaires.id,
        title: questionnaires.title,
        endDate: questionnaires.endDate,
        // Qualified by hand: inside the subquery drizzle would name the outer id bare, which is the answer's own.
        answered: sql<boolean>`exists (select 1 from ${questionnaireAnswers} where ${questionnaireAnswers.questionnaireId} = "questionnaires"."id" and ${questionnaireAnswers.respondentKey} = ${respondentKeyOf(parent)})`,
      })
      .from(questionnaires)
      .where(and(eq(questionnaires.enabled, true), lte(questionnaires.startDate, today), gte(questionnaires.endDate, today), reaches, onlyId === undefined ? undefined : eq(questionnaires.id, onlyId)))
      .orderBy(asc(questionnaires.endDate), asc(questionnaires.id))
      .limit(LIST_LIMIT);
    for (const row of rows) {
      const id = Number(row.id);
      if (!found.has(id)) found.set(id, { id, title: String(row.title), endDate: String(row.endDate), schoolId, answered: row.answered === true });
    }
  }
  return [...found.values()].sort((a, b) => a.endDate.localeCompare(b.endDate) || a.id - b.id).slice(0, LIST_LIMIT);
}

/** One questionnaire open for the parent, or 404. */
export async function openQuestionnaireFor(db: Executor, parent: AppParent, now: Date, id: number) {
  const [found] = await openQuestionnairesFor(db, parent, now, id);
  if (!found) throw notFound();
  return found;
}

/**
 * Stores the parent's answer (409 when it has answered already) and gives it the 葱米 a questionnaire
 * answered earns (the amount set on scallionRiceOrder), in one transaction: no answer without its
 * points, no points without the answer.
 */
export async function answerAsParent(db: Database, parent: AppParent, body: AppAnswerQuestionnaire, now: Date): Promise<{ answerId: number }> {
  const open = await openQuestionnaireFor(db, parent, now, body.questionnaireId);
  return db.transaction(async (tx) => {
    const answer = await submitAnswer(tx as unknown as Database, { questionnaireId: open.id, respondentKey: respondentKeyOf(parent), schoolId: open.schoolId, answers: body.answers }, QUESTIONNAIRE_CHANNEL_APP, now);
    await awardQuestionnairePoints(tx, parent.id, open.id, now);
    return answer;
  });
}
