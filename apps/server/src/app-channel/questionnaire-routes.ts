/**
 * The questionnaire's app answers, on the channel: the respondent is the signed-in parent (one answer
 * per parent and questionnaire, keyed `parent:<id>`), and only questionnaires open today whose
 * audience reaches one of the parent's children's schools are listed, shown or answered (404 else).
 * The answer counts for the first such school, so it lies in that school's results.
 */
import {
  APP_PATHS,
  QUESTIONNAIRE_CHANNEL_APP,
  appAnswerQuestionnaireSchema,
  appQuestionnaireListSchema,
  appQuestionnaireQuerySchema,
  formatBusinessDate,
  publicQuestionnaireSchema,
  questionnaireAnswerResultSchema,
} from '@campus/contract';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Executor } from '../db/client.js';
import { questionnaireAnswers, questionnaires, questionnaireSchools } from '../db/schema/index.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { notFound } from '../platform/errors.js';
import { audienceReachesSchool } from '../resources/engine/audience.js';
import { PARENT_RESPONDENT_PREFIX, questionnaireForm, submitAnswer } from '../resources/questionnaire-answers.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';
import type { AppParent } from './sessions.js';

const tags = ['App'];
const config = { parentChannel: true } as const;
const LIST_LIMIT = 50;

const respondentKeyOf = (parent: AppParent) => `${PARENT_RESPONDENT_PREFIX}${parent.id}`;

/** Questionnaires open today for the parent's schools, each with the first of its schools it reaches. */
async function openFor(db: Executor, parent: AppParent, now: Date, onlyId?: number) {
  const today = formatBusinessDate(now);
  const found = new Map<number, { id: number; title: string; endDate: string; schoolId: number; answered: boolean }>();
  for (const schoolId of parent.schoolIds) {
    const reaches = audienceReachesSchool(questionnaires, { table: questionnaireSchools, owner: questionnaireSchools.questionnaireId, school: questionnaireSchools.schoolId }, schoolId);
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
async function openOneFor(db: Executor, parent: AppParent, now: Date, id: number) {
  const [found] = await openFor(db, parent, now, id);
  if (!found) throw notFound();
  return found;
}

export const questionnaireRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    APP_PATHS.questionnaires,
    { config, schema: { tags, summary: "Questionnaires open today for the parent's children's schools, and whether the parent answered", response: { 200: envelopeSchema(appQuestionnaireListSchema) } } },
    async (request) => ok((await openFor(app.db, request.parent, app.clock.now())).map(({ id, title, endDate, answered }) => ({ id, title, endDate, answered }))),
  );

  app.get(
    APP_PATHS.questionnaire,
    {
      config,
      schema: { tags, summary: 'A questionnaire open for the parent, with its questions (404 for any other)', querystring: appQuestionnaireQuerySchema, response: { 200: envelopeSchema(publicQuestionnaireSchema) } },
    },
    async (request) => {
      const now = app.clock.now();
      await openOneFor(app.db, request.parent, now, request.query.id);
      // The app answers for the parent's school: no school to choose.
      return ok({ ...(await questionnaireForm(app.db, request.query.id, now)), isSchoolRequired: false, schools: [] });
    },
  );

  app.post(
    APP_PATHS.answerQuestionnaire,
    {
      config,
      schema: {
        tags,
        summary: 'Answer a questionnaire as the signed-in parent: once per parent (a second answer is 409)',
        headers: idempotencyHeadersSchema,
        body: appAnswerQuestionnaireSchema,
        response: { 200: envelopeSchema(questionnaireAnswerResultSchema) },
      },
    },
    async (request) =>
      ok(
        await onceByKey(request, async () => {
          const now = app.clock.now();
          const open = await openOneFor(app.db, request.parent, now, request.body.questionnaireId);
          return submitAnswer(app.db, { questionnaireId: open.id, respondentKey: respondentKeyOf(request.parent), schoolId: open.schoolId, answers: request.body.answers }, QUESTIONNAIRE_CHANNEL_APP, now);
        }),
      ),
  );
};
