import { Parent } from '@campus/contract';
import { linkTable } from './link-table.js';
import { parents, students } from './resources.js';

/** The students a parent is linked to (Parent.studentIds); links go with either side. */
export const parentStudents = linkTable(Parent.fields.studentIds.link, { owner: () => parents.id, target: () => students.id });
