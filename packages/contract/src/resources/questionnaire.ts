/**
 * Questionnaires (page questionnaire): questions with their options as the questionnaire's lines, a
 * publish window and an audience like a poster's. Answers arrive through a public signed link or the
 * parent app (api/questionnaire.ts); the page shows per-question results and exports every answer.
 */
import { z } from 'zod';
import { enabledField, periodFields } from './common.js';
import { defineResource } from './define.js';
import { textItemsOf } from './line-rules.js';
import { audienceFields } from './app-screens.js';

export const QUESTION_TYPE_SINGLE = 1;
export const QUESTION_TYPE_MULTIPLE = 2;
export const QUESTION_TYPE_TEXT = 3;

export const QUESTION_TYPE_OPTIONS = [
  { value: QUESTION_TYPE_SINGLE, zh: '单选', en: 'Single choice', color: 'blue' },
  { value: QUESTION_TYPE_MULTIPLE, zh: '多选', en: 'Multiple choice', color: 'purple' },
  { value: QUESTION_TYPE_TEXT, zh: '文本', en: 'Text', color: 'default' },
] as const;

/** Bounds of a choice question's options (one per line of its `options` text). */
export const QUESTION_OPTIONS_MIN = 2;
export const QUESTION_OPTIONS_MAX = 20;
export const QUESTION_OPTION_MAX_LENGTH = 100;
export const ANSWER_TEXT_MAX_LENGTH = 1000;

/**
 * The options of a choice question: its `options` text split into lines, blanks dropped. Options are
 * named by their 1-based position, so a questionnaire's questions are fixed once it has answers.
 */
export const questionOptionsOf = textItemsOf;

export const Questionnaire = defineResource({
  name: 'Questionnaire',
  label: { zh: '问卷', en: 'Questionnaire' },
  table: 'questionnaires',
  views: [{ frame: 'questionnaire' }],
  scope: { via: 'global' },
  titleField: 'title',
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    title: { kind: 'text', label: { zh: '问卷标题', en: 'Title' }, required: true, max: 100, filter: 'name' },
    description: { kind: 'textarea', label: { zh: '说明', en: 'Description' }, max: 1000, list: false },
    ...periodFields(),
    ...audienceFields({ table: 'questionnaire_schools', owner: 'questionnaireId' }),
    // Kept by the answer writes, in their transaction: the list shows it without counting answers.
    answerCount: { kind: 'number', label: { zh: '答卷数', en: 'Answers' }, readOnly: true, sortable: true, width: 90 },
    enabled: enabledField(),
    questions: {
      kind: 'lines',
      table: 'questionnaire_questions',
      label: { zh: '题目', en: 'Questions' },
      // Lines are read by Get only; the list and its export would show an empty column. The answers' export holds them.
      list: false,
      exported: false,
      required: true,
      min: 1,
      max: 50,
      fields: {
        title: { kind: 'text', label: { zh: '题目', en: 'Question' }, required: true, max: 200 },
        type: { kind: 'enum', options: QUESTION_TYPE_OPTIONS, label: { zh: '题型', en: 'Type' }, required: true, defaultValue: QUESTION_TYPE_SINGLE, width: 110 },
        isRequired: { kind: 'bool', label: { zh: '必答', en: 'Required' }, defaultValue: true, width: 80 },
        options: {
          kind: 'textarea',
          label: { zh: '选项', en: 'Options' },
          max: 2000,
          help: { zh: '单选、多选题每行一个选项（2–20 个）；文本题留空', en: 'One option per line for choice questions (2–20); empty for text' },
          items: {
            min: QUESTION_OPTIONS_MIN,
            max: QUESTION_OPTIONS_MAX,
            itemMax: QUESTION_OPTION_MAX_LENGTH,
            when: { field: 'type', in: [QUESTION_TYPE_SINGLE, QUESTION_TYPE_MULTIPLE] },
            messages: { count: 'questionnaire.optionsCount', tooLong: 'questionnaire.optionTooLong', twice: 'questionnaire.optionTwice', notHere: 'questionnaire.textHasOptions' },
          },
        },
      },
    },
  },
  // The questionnaire page declares no `enable` button: switching one is an edit of it.
  toggles: [{ field: 'enabled', button: 'update' }],
});

/** The signed link of a questionnaire: `token` names it and proves it was issued by this deployment. */
export const questionnaireLinkSchema = z.object({ token: z.string(), path: z.string() });
export type QuestionnaireLink = z.infer<typeof questionnaireLinkSchema>;

/** One question as a respondent sees it. */
export const publicQuestionSchema = z.object({
  questionNo: z.number(),
  title: z.string(),
  type: z.number(),
  isRequired: z.boolean(),
  options: z.array(z.string()),
});

/** What the public link answers: the questionnaire to fill in, while its window is open. */
export const publicQuestionnaireSchema = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  /** Whether the respondent must name a school (an area or chosen-schools audience). */
  isSchoolRequired: z.boolean(),
  schools: z.array(z.object({ id: z.number(), schoolName: z.string() })),
  questions: z.array(publicQuestionSchema),
});
export type PublicQuestionnaire = z.infer<typeof publicQuestionnaireSchema>;

export const questionnaireTokenQuerySchema = z.object({ token: z.string().min(1).max(200) });

/** One question's answer: the chosen options by position (choice questions) or a text. */
export const questionAnswerSchema = z.strictObject({
  questionNo: z.number().int().min(1).max(50),
  optionNos: z.array(z.number().int().min(1).max(QUESTION_OPTIONS_MAX)).max(QUESTION_OPTIONS_MAX).optional(),
  text: z.string().trim().max(ANSWER_TEXT_MAX_LENGTH).optional(),
});

/**
 * An answer sent through the link. `respondentKey` names the respondent (the link's page keeps a
 * random one per browser): one answer per key, so a reload or a retry is never counted twice. Keys
 * starting `parent:` are the parent app's (one per signed-in parent) and refused here.
 */
export const questionnaireAnswerBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  respondentKey: z.string().trim().min(8).max(64).regex(/^[A-Za-z0-9:_-]+$/),
  schoolId: z.number().int().min(1).max(2_147_483_647).optional(),
  answers: z.array(questionAnswerSchema).max(50),
});
export type QuestionnaireAnswerBody = z.infer<typeof questionnaireAnswerBodySchema>;
export const questionnaireAnswerResultSchema = z.object({ answerId: z.number() });

/** The results of one questionnaire over the answers in the caller's scope. */
export const questionnaireResultsSchema = z.object({
  id: z.number(),
  title: z.string(),
  answerCount: z.number(),
  questions: z.array(
    z.object({
      questionNo: z.number(),
      title: z.string(),
      type: z.number(),
      /** Respondents who answered this question. */
      answered: z.number(),
      options: z.array(z.object({ optionNo: z.number(), text: z.string(), count: z.number() })),
      /** The newest text answers (text questions), at most QUESTIONNAIRE_RESULT_TEXTS. */
      texts: z.array(z.string()),
    }),
  ),
});
export type QuestionnaireResults = z.infer<typeof questionnaireResultsSchema>;
export const QUESTIONNAIRE_RESULT_TEXTS = 20;
export const questionnaireIdQuerySchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** The calls of a questionnaire besides its family's: results, answers export, link, and the respondents' calls. */
export const QUESTIONNAIRE_PATHS = {
  results: '/api/Questionnaire/GetResults',
  exportAnswers: '/api/Questionnaire/ExportAnswers',
  link: '/api/Questionnaire/GetLink',
  publicForm: '/api/Questionnaire/Public/Get',
  publicAnswer: '/api/Questionnaire/Public/Answer',
} as const;

/** The web page a questionnaire's link opens: a respondent's form, no login. */
export const QUESTIONNAIRE_ANSWER_ROUTE = '/survey';

/** How an answer arrived. */
export const QUESTIONNAIRE_CHANNEL_LINK = 1;
export const QUESTIONNAIRE_CHANNEL_APP = 2;
export const QUESTIONNAIRE_CHANNEL_OPTIONS = [
  { value: QUESTIONNAIRE_CHANNEL_LINK, zh: '链接', en: 'Link' },
  { value: QUESTIONNAIRE_CHANNEL_APP, zh: 'App', en: 'App' },
] as const;
