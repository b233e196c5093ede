/**
 * Demo questionnaires with answers from parents of the demo schools, so the questionnaire page shows
 * real result charts and an export with rows: one open to every school, one to chosen schools, and
 * one whose window has ended.
 */
import { QUESTIONNAIRE_CHANNEL_APP, QUESTIONNAIRE_CHANNEL_LINK, QUESTION_TYPE_MULTIPLE, QUESTION_TYPE_SINGLE, QUESTION_TYPE_TEXT, questionOptionsOf } from '@campus/contract';
import type { Transaction } from '../db/client.js';
import { questionnaireAnswerItems, questionnaireAnswers, questionnaireQuestions, questionnaires, questionnaireSchools } from '../db/schema/index.js';

const dayFrom = (now: Date, days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

interface DemoQuestion {
  title: string;
  type: number;
  isRequired: boolean;
  options?: string;
  /** Relative weights of the options, so the charts show a believable spread. */
  weights?: number[];
  texts?: string[];
}

interface DemoQuestionnaire {
  title: string;
  description: string;
  startDays: number;
  endDays: number;
  audience: 1 | 3;
  /** Positions in the demo schools (chosen-schools audience). */
  schools?: number[];
  respondents: number;
  questions: DemoQuestion[];
}

const DEMO: readonly DemoQuestionnaire[] = [
  {
    title: '2026 秋季家长满意度调查',
    description: '您的意见将帮助我们改进接送、餐饮和家园沟通服务，约需 2 分钟。',
    startDays: -10,
    endDays: 20,
    audience: 1,
    respondents: 36,
    questions: [
      { title: '您对孩子入园接送的便利程度是否满意？', type: QUESTION_TYPE_SINGLE, isRequired: true, options: '非常满意\n满意\n一般\n不满意', weights: [5, 8, 3, 1] },
      { title: '您最常使用 App 的哪些功能？', type: QUESTION_TYPE_MULTIPLE, isRequired: true, options: '考勤推送\n宝宝相册\n缴费中心\n精彩课堂\n通知公告', weights: [9, 6, 4, 3, 5] },
      { title: '您希望多久收到一次孩子在园的照片？', type: QUESTION_TYPE_SINGLE, isRequired: false, options: '每天\n每周两三次\n每周一次', weights: [6, 4, 2] },
      { title: '其他意见或建议', type: QUESTION_TYPE_TEXT, isRequired: false, texts: ['希望放学时段增加一个闸机通道。', '相册照片能不能按月份归档？', '老师回复很及时，点赞！', '希望缴费后能开电子发票。'] },
    ],
  },
  {
    title: '冬季午餐菜单征询',
    description: '请选出您希望孩子在冬季午餐中多吃的食物。',
    startDays: -3,
    endDays: 14,
    audience: 3,
    schools: [0, 2],
    respondents: 18,
    questions: [
      { title: '您希望增加哪些主食？', type: QUESTION_TYPE_MULTIPLE, isRequired: true, options: '杂粮饭\n手工面条\n饺子\n小馒头', weights: [4, 5, 7, 3] },
      { title: '孩子是否有食物过敏？', type: QUESTION_TYPE_SINGLE, isRequired: true, options: '没有\n有（请在下题说明）', weights: [9, 1] },
      { title: '过敏食物说明', type: QUESTION_TYPE_TEXT, isRequired: false, texts: ['对芒果过敏。', '花生过敏，请避免花生酱。'] },
    ],
  },
  {
    title: '暑期托管意向调查',
    description: '了解家长对暑期托管班的需求。',
    startDays: -120,
    endDays: -90,
    audience: 1,
    respondents: 12,
    questions: [
      { title: '暑期是否需要托管服务？', type: QUESTION_TYPE_SINGLE, isRequired: true, options: '需要\n不需要\n视费用而定', weights: [5, 3, 4] },
      { title: '希望托管的时长', type: QUESTION_TYPE_SINGLE, isRequired: true, options: '两周\n一个月\n整个暑假', weights: [3, 5, 2] },
    ],
  },
];

/** A deterministic sequence in [0, 1): the demo is the same on every start. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** An option position (1-based) drawn by weight. */
function pick(weights: number[], next: () => number): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let point = next() * total;
  for (const [index, weight] of weights.entries()) {
    point -= weight;
    if (point < 0) return index + 1;
  }
  return weights.length;
}

export async function seedDemoQuestionnaires(tx: Transaction, demoSchools: { id: number }[], now: Date): Promise<void> {
  for (const [position, demo] of DEMO.entries()) {
    const next = sequence(position + 7);
    const [row] = await tx
      .insert(questionnaires)
      .values({ title: demo.title, description: demo.description, startDate: dayFrom(now, demo.startDays), endDate: dayFrom(now, demo.endDays), audience: demo.audience, answerCount: demo.respondents, enabled: true })
      .returning({ id: questionnaires.id });
    const id = Number(row!.id);
    await tx.insert(questionnaireQuestions).values(demo.questions.map((question, index) => ({ questionnaireId: id, lineNo: index + 1, title: question.title, type: question.type, isRequired: question.isRequired, options: question.options ?? null })));
    const audienceSchools = demo.schools ? demo.schools.map((index) => demoSchools[index]!.id) : demoSchools.map((school) => school.id);
    if (demo.schools) await tx.insert(questionnaireSchools).values(audienceSchools.map((schoolId) => ({ questionnaireId: id, schoolId })));

    const items: { answerId: number; questionnaireId: number; questionNo: number; optionNo: number | null; text: string | null }[] = [];
    for (let respondent = 0; respondent < demo.respondents; respondent += 1) {
      const [answer] = await tx
        .insert(questionnaireAnswers)
        .values({
          questionnaireId: id,
          schoolId: audienceSchools[respondent % audienceSchools.length]!,
          respondentKey: `demo-${id}-${respondent}`,
          channel: respondent % 3 === 0 ? QUESTIONNAIRE_CHANNEL_APP : QUESTIONNAIRE_CHANNEL_LINK,
          // Inside the window: before today, or before the end of a window already over.
          answeredAt: new Date(now.getTime() + Math.min(0, demo.endDays) * 86_400_000 - (respondent + 1) * 5 * 3_600_000),
        })
        .returning({ id: questionnaireAnswers.id });
      const answerId = Number(answer!.id);
      demo.questions.forEach((question, index) => {
        const questionNo = index + 1;
        if (question.type === QUESTION_TYPE_TEXT) {
          const texts = question.texts ?? [];
          if (respondent < texts.length) items.push({ answerId, questionnaireId: id, questionNo, optionNo: null, text: texts[respondent]! });
          return;
        }
        const weights = question.weights ?? questionOptionsOf(question.options).map(() => 1);
        if (!question.isRequired && next() < 0.2) return;
        if (question.type === QUESTION_TYPE_SINGLE) {
          items.push({ answerId, questionnaireId: id, questionNo, optionNo: pick(weights, next), text: null });
          return;
        }
        const chosen = new Set([pick(weights, next), pick(weights, next)]);
        for (const optionNo of [...chosen].sort((a, b) => a - b)) items.push({ answerId, questionnaireId: id, questionNo, optionNo, text: null });
      });
    }
    await tx.insert(questionnaireAnswerItems).values(items);
  }
}
