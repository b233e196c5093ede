import { index, integer, pgTable, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { id, timestamptz } from './columns.js';
import { parents, students } from './resources.js';

/** The students a parent is linked to (Parent.studentIds); links go with either side. */
export const parentStudents = pgTable(
  'parent_students',
  {
    id: id(),
    parentId: integer('parent_id')
      .notNull()
      .references((): AnyPgColumn => parents.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references((): AnyPgColumn => students.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('parent_students_parent_student_unique').on(table.parentId, table.studentId),
    index('parent_students_student_id_idx').on(table.studentId),
  ],
);
