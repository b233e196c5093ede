import { asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { schools, userSchools } from '../db/schema/index.js';

/** The name shown for accounts that are not tied to one school. */
export const COMPANY_NAME = 'Campus Ops';

/**
 * The school a session shows in its header: an external user's first bound school; everyone else
 * works across schools and sees the company (school id 0).
 */
export async function homeSchoolOf(db: Database, user: { id: number; type: string }): Promise<{ schoolId: number; schoolName: string }> {
  if (user.type !== 'external') return { schoolId: 0, schoolName: COMPANY_NAME };
  const [school] = await db
    .select({ id: schools.id, name: schools.schoolName })
    .from(userSchools)
    .innerJoin(schools, eq(schools.id, userSchools.schoolId))
    .where(eq(userSchools.userId, user.id))
    .orderBy(asc(schools.id))
    .limit(1);
  return school ? { schoolId: school.id, schoolName: school.name } : { schoolId: 0, schoolName: COMPANY_NAME };
}
