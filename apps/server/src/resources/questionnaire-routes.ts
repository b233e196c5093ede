/**
 * The calls of the questionnaire page besides its family's (results, the answers' export, the signed
 * link) and the link's respondents' calls: the public form and answer behind the link. The parent
 * app answers through its own channel, as the signed-in parent (app-channel/questionnaire-routes.ts).
 */
import {
  QUESTIONNAIRE_ANSWER_ROUTE,
  formatServerMessage,
  QUESTIONNAIRE_CHANNEL_LINK,
  QUESTIONNAIRE_CHANNEL_OPTIONS,
  QUESTIONNAIRE_PATHS,
  Questionnaire,
  publicQuestionnaireSchema,
  questionnaireAnswerBodySchema,
  questionnaireAnswerResultSchema,
  questionnaireIdQuerySchema,
  questionnaireLinkSchema,
  questionnaireResultsSchema,
  questionnaireTokenQuerySchema,
} from '@campus/contract';
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { questionnaireAnswerItems, questionnaireAnswers, schools } from '../db/schema/index.js';
import { findBy } from './engine/lookup.js';
import { exportAttachmentHeader } from '../platform/attachments.js';
import { getRequestState } from '../platform/caller-state.js';
import { envelopeSchema, errorResponses, ok, XLSX_CONTENT_TYPE } from '../platform/envelope.js';
import { notFound } from '../platform/errors.js';
import { localeOf } from '../platform/locale.js';
import { requireFrame } from '../platform/permissions.js';
import { streamWorkbook, type CellInput } from '../platform/xlsx-export.js';
import { answersInScope, publicQuestionnaire, questionnaireResults, questionnaireTokenSigner, submitLinkAnswer } from './questionnaire-answers.js';
import { storedQuestions } from './questionnaire-questions.js';

const FRAME = 'questionnaire';
const EXPORT_BATCH = 500;
const tags = [Questionnaire.name];

/** Refuses (404) a questionnaire that does not exist. */
async function existingQuestionnaire(db: Parameters<typeof storedQuestions>[0], id: number): Promise<void> {
  if (!(await findBy(db, Questionnaire, 'id', id))) throw notFound();
}

export const questionnaireRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    QUESTIONNAIRE_PATHS.results,
    {
      onRequest: requireFrame(FRAME),
      schema: { tags, summary: "Each question's results over the answers of the caller's schools", querystring: questionnaireIdQuerySchema, response: { 200: envelopeSchema(questionnaireResultsSchema) } },
    },
    async (request) => {
      const { scope } = await getRequestState(request);
      return ok(await questionnaireResults(app.db, scope, request.query.id));
    },
  );

  app.get(
    QUESTIONNAIRE_PATHS.link,
    {
      onRequest: requireFrame(FRAME),
      schema: { tags, summary: 'The signed link respondents answer through, without a login', querystring: questionnaireIdQuerySchema, response: { 200: envelopeSchema(questionnaireLinkSchema) } },
    },
    async (request) => {
      await existingQuestionnaire(app.db, request.query.id);
      const token = (await questionnaireTokenSigner(app.db))(request.query.id);
      return ok({ token, path: `${QUESTIONNAIRE_ANSWER_ROUTE}?token=${encodeURIComponent(token)}` });
    },
  );

  app.get(
    QUESTIONNAIRE_PATHS.exportAnswers,
    {
      onRequest: requireFrame(FRAME, 'export'),
      schema: { tags, summary: "Every answer of the caller's schools as .xlsx: one row per respondent, one column per question", querystring: questionnaireIdQuerySchema, response: { 200: z.any(), ...errorResponses } },
    },
    async (request, reply) => {
      const { scope } = await getRequestState(request);
      const locale = localeOf(request);
      const id = request.query.id;
      await existingQuestionnaire(app.db, id);
      const questions = await storedQuestions(app.db, id);
      const inScope = answersInScope(scope, id);
      const readBatch = (afterId: number) =>
        app.db
          .select({ id: questionnaireAnswers.id, answeredAt: questionnaireAnswers.answeredAt, channel: questionnaireAnswers.channel, schoolName: schools.schoolName })
          .from(questionnaireAnswers)
          .leftJoin(schools, eq(schools.id, questionnaireAnswers.schoolId))
          .where(and(inScope, gt(questionnaireAnswers.id, afterId)))
          .orderBy(asc(questionnaireAnswers.id))
          .limit(EXPORT_BATCH);
      // Read before the headers: a failing query then answers the error envelope.
      let batch = await readBatch(0);

      const stream = streamWorkbook([
        {
          name: Questionnaire.label[locale],
          columns: [
            { header: formatServerMessage('questionnaire.answerNoColumn', undefined, locale), key: 'id', kind: 'text', width: 12 },
            { header: formatServerMessage('questionnaire.answeredAtColumn', undefined, locale), key: 'answeredAt', kind: 'datetime', width: 20 },
            { header: formatServerMessage('questionnaire.schoolColumn', undefined, locale), key: 'schoolName', kind: 'text', width: 28 },
            { header: formatServerMessage('questionnaire.channelColumn', undefined, locale), key: 'channel', kind: 'text', width: 10 },
            ...questions.map((question) => ({ header: `${question.questionNo}. ${question.title}`, key: `q${question.questionNo}`, kind: 'text' as const, width: 30 })),
          ],
          async write(sheet) {
            while (batch.length > 0) {
              const items = await app.db
                .select({ answerId: questionnaireAnswerItems.answerId, questionNo: questionnaireAnswerItems.questionNo, optionNo: questionnaireAnswerItems.optionNo, text: questionnaireAnswerItems.text })
                .from(questionnaireAnswerItems)
                .where(inArray(questionnaireAnswerItems.answerId, batch.map((answer) => answer.id)))
                .orderBy(asc(questionnaireAnswerItems.id));
              for (const answer of batch) {
                const cells: Record<string, CellInput> = {
                  id: answer.id,
                  answeredAt: answer.answeredAt,
                  schoolName: answer.schoolName ?? '',
                  channel: QUESTIONNAIRE_CHANNEL_OPTIONS.find((option) => option.value === answer.channel)?.[locale] ?? '',
                };
                for (const question of questions) {
                  const mine = items.filter((item) => item.answerId === answer.id && item.questionNo === question.questionNo);
                  cells[`q${question.questionNo}`] = mine.map((item) => (item.optionNo !== null ? (question.options[item.optionNo - 1] ?? '') : (item.text ?? ''))).join('；');
                }
                sheet.addRow(cells);
              }
              if (batch.length < EXPORT_BATCH) break;
              batch = await readBatch(batch[batch.length - 1]!.id);
            }
          },
        },
      ]);
      reply.header('Content-Type', XLSX_CONTENT_TYPE).header('Content-Disposition', exportAttachmentHeader(FRAME, locale, app.clock.now()));
      return reply.send(stream);
    },
  );

  app.get(
    QUESTIONNAIRE_PATHS.publicForm,
    {
      config: { public: true },
      schema: { tags, summary: 'The questionnaire a signed link names, while it is open (public: the token is the guard)', querystring: questionnaireTokenQuerySchema, response: { 200: envelopeSchema(publicQuestionnaireSchema) } },
    },
    async (request) => ok(await publicQuestionnaire(app.db, request.query.token, app.clock.now())),
  );

  app.post(
    QUESTIONNAIRE_PATHS.publicAnswer,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Answer through the signed link; one answer per respondent key (public: the token is the guard)',
        body: questionnaireAnswerBodySchema,
        response: { 200: envelopeSchema(questionnaireAnswerResultSchema) },
      },
    },
    async (request) => ok(await submitLinkAnswer(app.db, request.body, QUESTIONNAIRE_CHANNEL_LINK, app.clock.now())),
  );
};
