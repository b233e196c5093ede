/**
 * Answers to questionnaires: the signed link that lets anyone holding it answer without a login, the
 * check of an answer against the questions, the answer written once per respondent, and the results
 * counted from the stored answers in the reader's scope.
 */
import {
  POSTER_AUDIENCE_ALL,
  QUESTIONNAIRE_RESULT_TEXTS,
  QUESTION_TYPE_SINGLE,
  QUESTION_TYPE_TEXT,
  Questionnaire,
  formatBusinessDate,
  type StoredRowOf,
  type QuestionnaireAnswerBody,
  type QuestionnaireResults,
} from '@campus/contract';
import { and, asc, count, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { questionnaireAnswerItems, questionnaireAnswers, questionnaires, schools } from '../db/schema/index.js';
import { schoolsInAudience } from './engine/audience.js';
import { findBy } from './engine/lookup.js';
import { badRequest, conflict, msg, notFound, type FieldProblem } from '../platform/errors.js';
import { scopeCondition, type SchoolScope } from '../platform/scope.js';
import { deploymentSigner } from '../platform/signatures.js';
import { storedQuestions, type StoredQuestion } from './questionnaire-questions.js';

/** Schools a respondent may pick from when the audience is an area or chosen schools. */
const SCHOOL_CHOICES_MAX = 500;

/** The deployment's link signer, its signatures cut to 32 characters to keep links short. */
const linkSigner = (db: Executor) => deploymentSigner(db, 'questionnaire.linkSecret', 32);

/**
 * Signs questionnaire links: a token is the questionnaire's id and an HMAC only this deployment can
 * make. The secret is read once, however many links are signed with it.
 */
export async function questionnaireTokenSigner(db: Executor): Promise<(id: number) => string> {
  const signer = await linkSigner(db);
  return (id) => `${id}.${signer.sign(`questionnaire:${id}`)}`;
}

/** The questionnaire a token names, or 404 for a token this deployment did not issue. */
export async function questionnaireIdOfToken(db: Executor, token: string): Promise<number> {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
  const id = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound();
  if (!(await linkSigner(db)).verify(`questionnaire:${id}`, match[2]!)) throw notFound();
  return id;
}

type QuestionnaireRow = StoredRowOf<typeof Questionnaire>;

async function questionnaireById(db: Executor, id: number): Promise<QuestionnaireRow> {
  const row = await findBy(db, Questionnaire, 'id', id);
  if (!row) throw notFound();
  return row;
}

/** Whether respondents may answer now: enabled and today (Asia/Shanghai) inside its window. */
export function isOpen(row: Pick<QuestionnaireRow, 'enabled' | 'startDate' | 'endDate'>, now: Date): boolean {
  const today = formatBusinessDate(now);
  return row.enabled !== false && String(row.startDate) <= today && today <= String(row.endDate);
}

/** The questionnaire as a respondent fills it in; refused (409) outside its window. */
export async function publicQuestionnaire(db: Database, token: string, now: Date) {
  return questionnaireForm(db, await questionnaireIdOfToken(db, token), now);
}

/** The form of a questionnaire by id (the link's, the parent app's); 404 when absent, 409 outside its window. */
export async function questionnaireForm(db: Executor, id: number, now: Date) {
  const row = await questionnaireById(db, id);
  if (!isOpen(row, now)) throw conflict(msg('questionnaire.closed'));
  const isSchoolRequired = Number(row.audience) !== POSTER_AUDIENCE_ALL;
  const schoolChoices = isSchoolRequired
    ? await db.select({ id: schools.id, schoolName: schools.schoolName }).from(schools).where(schoolsInAudience(Questionnaire, row)).orderBy(asc(schools.id)).limit(SCHOOL_CHOICES_MAX)
    : [];
  const questions = await storedQuestions(db, row.id);
  return {
    id: row.id,
    title: String(row.title),
    description: (row.description as string | null) ?? null,
    startDate: String(row.startDate),
    endDate: String(row.endDate),
    isSchoolRequired,
    schools: schoolChoices.map((school) => ({ id: Number(school.id), schoolName: String(school.schoolName) })),
    questions,
  };
}

interface AnswerItem {
  questionNo: number;
  optionNo: number | null;
  text: string | null;
}

/**
 * The rows an answer stores, after checking it against the questions: every question named exists
 * and is answered once, a single choice names exactly one of its options, a multiple choice one or
 * more distinct ones, a text question a text; every required question is answered. Errors are on
 * `questions.<questionNo>` so a form can show each beside its question.
 */
export function answerItemsOf(questions: readonly StoredQuestion[], answers: QuestionnaireAnswerBody['answers']): AnswerItem[] {
  const problems: FieldProblem[] = [];
  const items: AnswerItem[] = [];
  const byNo = new Map(questions.map((question) => [question.questionNo, question]));
  const answered = new Set<number>();
  for (const answer of answers) {
    const path = `questions.${answer.questionNo}`;
    const question = byNo.get(answer.questionNo);
    if (!question) {
      problems.push({ path, ...msg('questionnaire.unknownQuestion', { questionNo: answer.questionNo }) });
      continue;
    }
    if (answered.has(answer.questionNo)) {
      problems.push({ path, ...msg('questionnaire.answeredTwice') });
      continue;
    }
    const optionNos = [...new Set(answer.optionNos ?? [])];
    const text = answer.text?.trim() ?? '';
    if (question.type === QUESTION_TYPE_TEXT) {
      if (optionNos.length > 0) problems.push({ path, ...msg('questionnaire.textOnly') });
      else if (text) {
        answered.add(question.questionNo);
        items.push({ questionNo: question.questionNo, optionNo: null, text });
      }
      continue;
    }
    if (text) problems.push({ path, ...msg('questionnaire.choiceNeedsOptions') });
    else if (optionNos.some((optionNo) => optionNo > question.options.length)) problems.push({ path, ...msg('questionnaire.unknownOption') });
    else if (question.type === QUESTION_TYPE_SINGLE && optionNos.length > 1) problems.push({ path, ...msg('questionnaire.oneOption') });
    else if (optionNos.length > 0) {
      answered.add(question.questionNo);
      for (const optionNo of optionNos.sort((a, b) => a - b)) items.push({ questionNo: question.questionNo, optionNo, text: null });
    }
  }
  for (const question of questions) {
    const hasProblem = problems.some((problem) => problem.path === `questions.${question.questionNo}`);
    if (question.isRequired && !answered.has(question.questionNo) && !hasProblem) problems.push({ path: `questions.${question.questionNo}`, ...msg('questionnaire.answerRequired') });
  }
  if (problems.length > 0) throw badRequest(problems);
  return items;
}

/** The parent app's respondents are keyed by their account; the link's respondents may not take such a key. */
export const PARENT_RESPONDENT_PREFIX = 'parent:';

/** One respondent's answer: to which questionnaire, under which key, for which school (when the audience is not everyone). */
export interface AnswerSubmission {
  questionnaireId: number;
  respondentKey: string;
  schoolId?: number;
  answers: QuestionnaireAnswerBody['answers'];
}

/** The link's answer: the token names the questionnaire; a key reserved for the app is refused. */
export async function submitLinkAnswer(db: Database, body: QuestionnaireAnswerBody, channel: number, now: Date): Promise<{ answerId: number }> {
  const questionnaireId = await questionnaireIdOfToken(db, body.token);
  if (body.respondentKey.startsWith(PARENT_RESPONDENT_PREFIX)) throw badRequest([{ path: 'respondentKey', ...msg('app.reservedRespondentKey') }]);
  return submitAnswer(db, { questionnaireId, respondentKey: body.respondentKey, schoolId: body.schoolId, answers: body.answers }, channel, now);
}

/**
 * Stores one respondent's answer and counts it on the questionnaire, in one transaction; a second
 * answer under the same respondent key answers 409 and changes nothing (a reload never counts twice).
 */
export async function submitAnswer(db: Database, submission: AnswerSubmission, channel: number, now: Date): Promise<{ answerId: number }> {
  const id = submission.questionnaireId;
  return db.transaction(async (tx) => {
    const row = await questionnaireById(tx, id);
    if (!isOpen(row, now)) throw conflict(msg('questionnaire.closed'));
    let schoolId: number | null = null;
    if (submission.schoolId !== undefined) {
      const [school] = await tx.select({ id: schools.id }).from(schools).where(and(eq(schools.id, submission.schoolId), schoolsInAudience(Questionnaire, row)));
      if (!school) throw badRequest([{ path: 'schoolId', ...msg('questionnaire.schoolNotInAudience') }]);
      schoolId = Number(school.id);
    } else if (Number(row.audience) !== POSTER_AUDIENCE_ALL) {
      throw badRequest([{ path: 'schoolId', ...msg('questionnaire.schoolRequired') }]);
    }
    const items = answerItemsOf(await storedQuestions(tx, id), submission.answers);
    const [stored] = await tx
      .insert(questionnaireAnswers)
      .values({ questionnaireId: id, schoolId, respondentKey: submission.respondentKey, channel, answeredAt: now })
      .onConflictDoNothing({ target: [questionnaireAnswers.questionnaireId, questionnaireAnswers.respondentKey] })
      .returning({ id: questionnaireAnswers.id });
    if (!stored) throw conflict(msg('questionnaire.alreadyAnswered'));
    if (items.length > 0) await tx.insert(questionnaireAnswerItems).values(items.map((item) => ({ ...item, answerId: stored.id, questionnaireId: id })));
    await tx
      .update(questionnaires)
      .set({ answerCount: sql`coalesce(${questionnaires.answerCount}, 0) + 1` })
      .where(eq(questionnaires.id, id));
    return { answerId: Number(stored.id) };
  });
}

/** Answers of a questionnaire the scope reaches: an answer without a school (an all-schools link) only company-wide. */
export function answersInScope(scope: SchoolScope, questionnaireId: number): SQL {
  return and(eq(questionnaireAnswers.questionnaireId, questionnaireId), scope.kind === 'all' ? undefined : and(isNotNull(questionnaireAnswers.schoolId), scopeCondition(scope, questionnaireAnswers.schoolId)))!;
}

/** Each question's results over the answers in scope: respondents, a count per option, the newest texts. */
export async function questionnaireResults(db: Database, scope: SchoolScope, id: number): Promise<QuestionnaireResults> {
  const row = await questionnaireById(db, id);
  const questions = await storedQuestions(db, id);
  const inScope = answersInScope(scope, id);
  const [total] = await db.select({ n: count() }).from(questionnaireAnswers).where(inScope);
  const item = questionnaireAnswerItems;
  // One pass: a count per option, and (option null, `grouping` 1) the respondents of each question.
  const counted = await db
    .select({
      questionNo: item.questionNo,
      optionNo: item.optionNo,
      isQuestion: sql<number>`grouping(${item.optionNo})`,
      n: sql<number>`case when grouping(${item.optionNo}) = 1 then count(distinct ${item.answerId}) else count(*) end`,
    })
    .from(item)
    .innerJoin(questionnaireAnswers, eq(questionnaireAnswers.id, item.answerId))
    .where(inScope)
    .groupBy(sql`grouping sets ((${item.questionNo}, ${item.optionNo}), (${item.questionNo}))`);
  // The newest texts of every text question at once.
  const texts = (await db.execute(sql`
    select question_no as "questionNo", text from (
      select i.question_no, i.text, row_number() over (partition by i.question_no order by i.id desc) as nth
      from ${questionnaireAnswerItems} i join ${questionnaireAnswers} on ${questionnaireAnswers.id} = i.answer_id
      where ${inScope} and i.text is not null) t
    where nth <= ${QUESTIONNAIRE_RESULT_TEXTS} order by question_no, nth`)) as unknown as { rows: { questionNo: number; text: string }[] };
  const countOf = (questionNo: number, optionNo: number | null) =>
    Number(counted.find((entry) => entry.questionNo === questionNo && Number(entry.isQuestion) === (optionNo === null ? 1 : 0) && (optionNo === null || entry.optionNo === optionNo))?.n ?? 0);
  const results: QuestionnaireResults['questions'] = questions.map((question) => ({
    questionNo: question.questionNo,
    title: question.title,
    type: question.type,
    answered: countOf(question.questionNo, null),
    options: question.options.map((text, index) => ({ optionNo: index + 1, text, count: countOf(question.questionNo, index + 1) })),
    texts: question.type === QUESTION_TYPE_TEXT ? texts.rows.filter((entry) => Number(entry.questionNo) === question.questionNo).map((entry) => String(entry.text)) : [],
  }));
  return { id: row.id, title: String(row.title), answerCount: Number(total?.n ?? 0), questions: results };
}
