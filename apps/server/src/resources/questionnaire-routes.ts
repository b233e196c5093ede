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
import { questionnaireAnswerItems, questionnaireAnswers, schools } from '../db/schema/index.js';
import { familyCall, workbookCall } from './engine/calls.js';
import { findBy } from './engine/lookup.js';
import { getRequestState } from '../platform/caller-state.js';
import { notFound } from '../platform/errors.js';
import { streamWorkbook, type CellInput } from '../platform/xlsx-export.js';
import { answersInScope, publicQuestionnaire, questionnaireResults, questionnaireTokenSigner, submitLinkAnswer } from './questionnaire-answers.js';
import { storedQuestions } from './questionnaire-questions.js';

const FRAME = 'questionnaire';
const EXPORT_BATCH = 500;
const tag = Questionnaire.name;

/** Refuses (404) a questionnaire that does not exist. */
async function existingQuestionnaire(db: Parameters<typeof storedQuestions>[0], id: number): Promise<void> {
  if (!(await findBy(db, Questionnaire, 'id', id))) throw notFound();
}

/** The page's calls and the link's, guarded and documented by the engine (`familyCall`, `workbookCall`). */
export const questionnaireCalls = [
  familyCall(
    { tag, verb: 'GetResults', path: QUESTIONNAIRE_PATHS.results, access: { frame: FRAME }, summary: "Each question's results over the answers of the caller's schools", query: questionnaireIdQuerySchema, answer: questionnaireResultsSchema },
    async ({ app, request, query }) => questionnaireResults(app.db, (await getRequestState(request)).scope, query.id),
  ),
  familyCall(
    { tag, verb: 'GetLink', path: QUESTIONNAIRE_PATHS.link, access: { frame: FRAME }, summary: 'The signed link respondents answer through, without a login', query: questionnaireIdQuerySchema, answer: questionnaireLinkSchema },
    async ({ app, query }) => {
      await existingQuestionnaire(app.db, query.id);
      const token = (await questionnaireTokenSigner(app.db))(query.id);
      return { token, path: `${QUESTIONNAIRE_ANSWER_ROUTE}?token=${encodeURIComponent(token)}` };
    },
  ),
  familyCall(
    { tag, verb: 'PublicGet', path: QUESTIONNAIRE_PATHS.publicForm, access: 'public', summary: 'The questionnaire a signed link names, while it is open (public: the token is the guard)', query: questionnaireTokenQuerySchema, answer: publicQuestionnaireSchema },
    ({ app, query }) => publicQuestionnaire(app.db, query.token, app.clock.now()),
  ),
  familyCall(
    { tag, verb: 'PublicAnswer', path: QUESTIONNAIRE_PATHS.publicAnswer, method: 'POST', access: 'public', summary: 'Answer through the signed link; one answer per respondent key (public: the token is the guard)', body: questionnaireAnswerBodySchema, answer: questionnaireAnswerResultSchema },
    ({ app, body }) => submitLinkAnswer(app.db, body, QUESTIONNAIRE_CHANNEL_LINK, app.clock.now()),
  ),
  workbookCall(
    { tag, verb: 'ExportAnswers', path: QUESTIONNAIRE_PATHS.exportAnswers, frame: FRAME, summary: "Every answer of the caller's schools as .xlsx: one row per respondent, one column per question", query: questionnaireIdQuerySchema },
    async ({ app, request, query, locale }) => {
      const { scope } = await getRequestState(request);
      const id = query.id;
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

      return streamWorkbook([
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
    },
  ),
];
