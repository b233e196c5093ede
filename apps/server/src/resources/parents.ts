/**
 * The family modules of the parent's side (issue 28; the rules live in apps/server/src/parents/): a
 * parent's writes re-bind the receiving places of its children, the console's Extend grants a
 * child's service by hand, a binding is read with its child's service end, and the push worker runs
 * with the app.
 */
import { Parent, PushDelivery, ServiceReceiver, StudentService, formatBusinessDate } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { students } from '../db/schema/resources.js';
import { daysBetween } from '../parents/dates.js';
import { bindChildrenOfParents, extendServiceByHand, idList } from '../parents/service.js';
import { parentPushJob } from '../parents/push/job.js';
import { badRequest, msg } from '../platform/errors.js';
import { defineFamilyModule } from './engine/modules.js';
import { loadInScope } from './engine/write.js';

export const parentModule = defineFamilyModule(Parent, {
  // Linking, unlinking, enabling or disabling a parent moves the receiving places of its children.
  async afterWrite(ctx, { ids }) {
    await bindChildrenOfParents(ctx.db, ids, { now: ctx.clock.now() });
  },
  // The next waiting parent takes a deleted parent's place (its bindings go with it, by cascade).
  async beforeDelete(ctx, rows) {
    const ids = rows.map((row) => Number(row.id));
    await bindChildrenOfParents(ctx.db, ids, { leaving: ids, now: ctx.clock.now() });
  },
});

export const studentServiceModule = defineFamilyModule(StudentService, {
  // A service is its child's: an edit never moves it to another child.
  async beforeWrite(ctx, { values, existing }) {
    if (existing) return { ...values, studentId: existing.studentId };
    const [student] = await ctx.db.select({ name: students.name }).from(students).where(eq(students.id, Number(values.studentId)));
    return { ...values, studentName: student?.name ?? null };
  },
  actions: {
    async Extend(ctx, id, input) {
      const days = Number(input.days);
      if (days === 0) throw badRequest([{ path: 'days', ...msg('parents.extendZero') }]);
      return ctx.db.transaction(async (tx) => {
        await loadInScope(ctx, tx, id, true);
        const { serviceTo } = await extendServiceByHand(tx, id, { days, reason: String(input.reason), today: formatBusinessDate(ctx.clock.now()), userId: ctx.user.id });
        return { id, serviceTo };
      });
    },
  },
});

export const serviceReceiverModule = defineFamilyModule(ServiceReceiver, {
  // What the parent holds for each child: the service end, the item of the child's latest payment and the trial days left, in one read.
  async afterRead(ctx, rows) {
    const studentIds = [...new Set(rows.map((row) => Number(row.studentId)))];
    if (studentIds.length === 0) return rows;
    const found = (await ctx.db.execute(sql`
      select s.id as "studentId", ss.service_to::text as "serviceTo",
        (select i.name from payment_records pr join app_charge_items i on i.id = pr.charge_item_id
         where pr.student_id = s.id order by pr.paid_at desc, pr.id desc limit 1) as "chargeItem"
      from students s left join student_services ss on ss.student_id = s.id
      where s.id in (${idList(studentIds)})`)) as unknown as { rows: { studentId: unknown; serviceTo: string | null; chargeItem: string | null }[] };
    const held = new Map(found.rows.map((row) => [Number(row.studentId), row]));
    const today = formatBusinessDate(ctx.clock.now());
    return rows.map((row) => {
      const child = held.get(Number(row.studentId));
      return { ...row, serviceTo: child?.serviceTo ?? null, chargeItem: child?.chargeItem ?? null, trialDays: trialDaysLeft(row.trialTo, today) };
    });
  },
});

/** Days of trial left on `today` (business dates, the last day counted, as the app shows them); 0 once over, null without a trial. */
function trialDaysLeft(trialTo: unknown, today: string): number | null {
  if (typeof trialTo !== 'string' || trialTo === '') return null;
  return Math.max(0, daysBetween(today, trialTo) + 1);
}

export const pushDeliveryModule = defineFamilyModule(PushDelivery, {
  recurringJobs: [parentPushJob],
});
