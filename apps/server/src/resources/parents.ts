/**
 * The family modules of the parent's side (issue 28; the rules live in apps/server/src/parents/): a
 * parent's writes re-bind the receiving places of its children, the console's Extend grants a
 * child's service by hand, a binding is read with its child's service end, and the push worker runs
 * with the app.
 */
import { Parent, PushDelivery, ServiceReceiver, StudentService, formatBusinessDate } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import { students } from '../db/schema/resources.js';
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
  async afterRead(ctx, rows) {
    const studentIds = [...new Set(rows.map((row) => Number(row.studentId)))];
    if (studentIds.length === 0) return rows;
    const found = (await ctx.db.execute(sql`select student_id as "studentId", service_to::text as "serviceTo" from student_services where student_id in (${idList(studentIds)})`)) as unknown as { rows: { studentId: unknown; serviceTo: string | null }[] };
    const ends = new Map(found.rows.map((row) => [Number(row.studentId), row.serviceTo]));
    return rows.map((row) => ({ ...row, serviceTo: ends.get(Number(row.studentId)) ?? null }));
  },
});

export const pushDeliveryModule = defineFamilyModule(PushDelivery, {
  recurringJobs: [parentPushJob],
});
