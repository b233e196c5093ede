/** People pages: class and student pickers list only the rows of the school chosen in the same form. */
import type { ResourceOverrides } from '../resource-overrides';

export const studentOverrides: ResourceOverrides = { schoolScopedReferences: { classId: 'schoolId' } };
export const teacherOverrides: ResourceOverrides = { schoolScopedReferences: { classId: 'schoolId' } };
export const parentOverrides: ResourceOverrides = { schoolScopedReferences: { studentIds: 'schoolId' } };
