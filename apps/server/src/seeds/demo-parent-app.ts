/**
 * A few demo parents play the parent app in-process through the channel's own services (what
 * /api/App/* calls): they buy the service for a child with the demo provider (recordPayment extends
 * it), register a device for push, answer the open questionnaires, and one applies for a refund of
 * what it bought, which refundManage lists. The rows are the flows' own, as simulate:parents makes
 * them against a running console.
 */
import { QUESTION_TYPE_TEXT, type AppAnswerQuestionnaire } from '@campus/contract';
import { sql } from 'drizzle-orm';
import { answerAsParent, openQuestionnairesFor } from '../app-channel/questionnaires.js';
import { buyService, servicesOf } from '../app-channel/purchases.js';
import { applyForRefund } from '../app-channel/refunds.js';
import { appParentOf } from '../app-channel/sessions.js';
import type { Database, Transaction } from '../db/client.js';
import { DemoPaymentProvider } from '../finance/providers/index.js';
import { registerPushToken } from '../parents/index.js';
import { questionnaireForm } from '../resources/questionnaire-answers.js';
import { appStandIn } from '../resources/engine/context.js';

/** How many parents play: the first parent of each of the first schools. */
const PLAYERS = 3;

export async function seedDemoParentApp(tx: Transaction, now: Date): Promise<void> {
  const db = tx as unknown as Database;
  const clock = { now: () => now };
  const deps = { db, payments: { active: new DemoPaymentProvider(db) }, clock };
  const found = (await db.execute(sql`
    select min(p.id) as id from parents p where exists (select 1 from parent_students ps where ps.parent_id = p.id)
    group by p.school_id order by min(p.id) limit ${PLAYERS}`)) as unknown as { rows: { id: number }[] };
  for (const [position, { id }] of found.rows.entries()) {
    const parent = await appParentOf(db, Number(id));
    if (!parent) continue;
    // The child whose service ends first (one not in service before all): one the demo's payments already
    // paid for this year would be extended a year further.
    const service = (await servicesOf(db, parent, now))
      .filter((entry) => entry.chargeItems.length > 0)
      .sort((a, b) => Number(a.state === 'inService') - Number(b.state === 'inService') || (a.serviceTo ?? '').localeCompare(b.serviceTo ?? ''))[0];
    const order = service ? await buyService(deps, parent, { studentId: service.studentId, chargeItemId: service.chargeItems[0]!.id, scene: 'app' }) : undefined;
    await registerPushToken(db, parent.id, { platform: position % 2 === 0 ? 'android' : 'ios', token: `demo-device-${parent.id}`, appVersion: '3.2.0' }, now);
    for (const open of await openQuestionnairesFor(db, parent, now)) {
      const form = await questionnaireForm(db, open.id, now);
      // The first option of each choice question, a sentence for the required text ones.
      const answers = form.questions.flatMap((question): AppAnswerQuestionnaire['answers'] =>
        question.type === QUESTION_TYPE_TEXT ? (question.isRequired ? [{ questionNo: question.questionNo, text: '谢谢老师！' }] : []) : [{ questionNo: question.questionNo, optionNos: [1] }],
      );
      await answerAsParent(db, parent, { questionnaireId: open.id, answers }, now);
    }
    if (position === PLAYERS - 1 && order?.paymentId) {
      await applyForRefund(db, appStandIn('the demo seed', { clock }), parent, { paymentId: order.paymentId, reason: '重复购买，申请退款' });
    }
  }
}
