/**
 * What parents earn in 葱米 (the PointsEarningSetting on scallionRiceOrder) and the earning of a
 * questionnaire answered. An order completed earns in the completion job (mall/orders.ts).
 */
import { DEFAULT_POINTS_EARNING, POINTS_EARN_QUESTIONNAIRE, POINTS_EARNING_KEY } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { settings } from '../db/schema/index.js';
import { setSetting } from '../platform/settings.js';
import type { SettingStore } from '../resources/engine/settings.js';
import { postPoints } from './points.js';

export interface PointsEarning {
  orderCompleted: number;
  questionnaireAnswered: number;
}

/** The amounts in force: the setting, or the defaults until a company user saves one. */
export async function pointsEarningOf(db: Executor): Promise<PointsEarning> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, POINTS_EARNING_KEY));
  const value = row?.value as Partial<PointsEarning> | null | undefined;
  return {
    orderCompleted: typeof value?.orderCompleted === 'number' ? value.orderCompleted : DEFAULT_POINTS_EARNING.orderCompleted,
    questionnaireAnswered: typeof value?.questionnaireAnswered === 'number' ? value.questionnaireAnswered : DEFAULT_POINTS_EARNING.questionnaireAnswered,
  };
}

/** Where the setting lives: the settings table under POINTS_EARNING_KEY. */
export const pointsEarningStore: SettingStore = {
  read: async (db) => ({ ...(await pointsEarningOf(db)) }),
  write: (db, value) => setSetting(db, POINTS_EARNING_KEY, value),
};

/**
 * Gives a parent the points of a questionnaire answered, once per questionnaire, in the caller's
 * transaction (the channel's answer call). Answers whether they were given now.
 */
export async function awardQuestionnairePoints(tx: Executor, parentId: number, questionnaireId: number, now: Date): Promise<boolean> {
  const { questionnaireAnswered } = await pointsEarningOf(tx);
  return postPoints(tx, parentId, { kind: POINTS_EARN_QUESTIONNAIRE, amount: questionnaireAnswered, source: `Questionnaire:${questionnaireId}`, reason: `问卷 ${questionnaireId}`, now });
}
