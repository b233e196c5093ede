/** People rules: classes, students, parents' children and pick-up persons stay inside one school. */
import { Parent, PickUpPerson, SchoolClass, Student, Teacher } from '@campus/contract';
import { and, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { parentStudents, students } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import type { EngineContext, Row } from './engine/context.js';
import { defineFamilyHooks, type WriteInput } from './engine/hooks.js';
import { findBy, valueAfter } from './engine/lookup.js';

/** A class chosen for a person must belong to the person's school. */
async function classInSchool(ctx: EngineContext, { values, existing }: WriteInput): Promise<Row> {
  const classId = valueAfter(values, existing, 'classId');
  if (classId === null || classId === undefined) return values;
  const schoolClass = await findBy(ctx.db, SchoolClass, 'id', classId);
  if (schoolClass && schoolClass.schoolId !== valueAfter(values, existing, 'schoolId')) {
    throw badRequest([{ path: 'classId', ...msg('people.classOfOtherSchool') }]);
  }
  return values;
}

export const studentHooks = defineFamilyHooks(Student, { beforeWrite: classInSchool });
export const teacherHooks = defineFamilyHooks(Teacher, { beforeWrite: classInSchool });

/** The students linked to the given parents, with their names. */
async function linkedStudents(ctx: EngineContext, parentIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const rows = await ctx.db
    .select({ parentId: parentStudents.parentId, id: students.id, name: students.name })
    .from(parentStudents)
    .innerJoin(students, eq(students.id, parentStudents.studentId))
    .where(inArray(parentStudents.parentId, parentIds))
    .orderBy(parentStudents.id);
  const byParent = new Map<number, { id: number; name: string }[]>();
  for (const row of rows) byParent.set(row.parentId, [...(byParent.get(row.parentId) ?? []), { id: row.id, name: row.name }]);
  return byParent;
}

export const parentHooks = defineFamilyHooks(Parent, {
  async beforeWrite(ctx, { values, existing }) {
    const schoolId = valueAfter(values, existing, 'schoolId');
    const given = values.studentIds as number[] | undefined;
    // Moving a parent to another school re-checks the children it keeps.
    const studentIds = given ?? (existing && values.schoolId !== undefined ? ((await linkedStudents(ctx, [Number(existing.id)])).get(Number(existing.id)) ?? []).map((s) => s.id) : []);
    if (studentIds.length === 0) return values;
    const elsewhere = await ctx.db
      .select({ id: students.id })
      .from(students)
      .where(and(inArray(students.id, studentIds), ne(students.schoolId, Number(schoolId))));
    if (elsewhere.length > 0) throw badRequest([{ path: 'studentIds', ...msg('people.studentsOfParentSchool') }]);
    return values;
  },
  async afterWrite(ctx, change) {
    const studentIds = change.values.studentIds as number[] | undefined;
    if (change.op === 'toggle' || studentIds === undefined) return;
    const parentId = change.ids[0]!;
    await ctx.db
      .delete(parentStudents)
      .where(and(eq(parentStudents.parentId, parentId), studentIds.length > 0 ? notInArray(parentStudents.studentId, studentIds) : undefined));
    if (studentIds.length > 0) {
      await ctx.db
        .insert(parentStudents)
        .values(studentIds.map((studentId) => ({ parentId, studentId })))
        .onConflictDoNothing();
    }
  },
  async afterRead(ctx, rows) {
    const linked = await linkedStudents(ctx, rows.map((row) => Number(row.id)));
    return rows.map((row) => {
      const children = linked.get(Number(row.id)) ?? [];
      return { ...row, studentIds: children.map((c) => c.id), studentIdsLabel: children.map((c) => c.name) };
    });
  },
  linkFilters: {
    studentIds: (value, parentId) =>
      sql`exists (select 1 from ${parentStudents} where ${parentStudents.parentId} = ${parentId} and ${parentStudents.studentId} = ${Number(value)})`,
  },
});

export const pickUpPersonHooks = defineFamilyHooks(PickUpPerson, {
  async beforeWrite(ctx, { values, existing }) {
    const student = await findBy(ctx.db, Student, 'id', valueAfter(values, existing, 'studentId'));
    if (!student) throw badRequest([{ path: 'studentId', ...msg('validation.referenceNotFound', { field: Student.label }) }]);
    // The school follows the student so the scope key on the row is always right.
    return { ...values, schoolId: student.schoolId };
  },
});
