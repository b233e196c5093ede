/** The questionnaire calls of the channel (questionnaires.ts): the open list, a form, the parent's answer. */
import { APP_PATHS, appAnswerQuestionnaireSchema, appQuestionnaireListSchema, appQuestionnaireQuerySchema, publicQuestionnaireSchema, questionnaireAnswerResultSchema } from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { questionnaireForm } from '../resources/questionnaire-answers.js';
import { idempotencyHeadersSchema, onceByKey } from './idempotency.js';
import { answerAsParent, openQuestionnairesFor, openQuestionnaireFor } from './questionnaires.js';

const tags = ['App'];
const config = { parentChannel: true } as const;
export const questionnaireRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    APP_PATHS.questionnaires,
    { config, schema: { tags, summary: "Questionnaires open today for the parent's children's schools, and whether the parent answered", response: { 200: envelopeSchema(appQuestionnaireListSchema) } } },
    async (request) => ok((await openQuestionnairesFor(app.db, request.parent, app.clock.now())).map(({ id, title, endDate, answered }) => ({ id, title, endDate, answered }))),
  );

  app.get(
    APP_PATHS.questionnaire,
    {
      config,
      schema: { tags, summary: 'A questionnaire open for the parent, with its questions (404 for any other)', querystring: appQuestionnaireQuerySchema, response: { 200: envelopeSchema(publicQuestionnaireSchema) } },
    },
    async (request) => {
      const now = app.clock.now();
      await openQuestionnaireFor(app.db, request.parent, now, request.query.id);
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
        await onceByKey(request, () => answerAsParent(app.db, request.parent, request.body, app.clock.now())),
      ),
  );
};
