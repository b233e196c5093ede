/**
 * GET /api/Person/Search (personSearch): one box over students, parents, teachers and pick-up persons.
 * Each family is read with the engine's own table and scope condition, so the search sees exactly the
 * rows the family's page would; a family whose page the caller does not hold is left out, because its
 * hits could not be opened.
 */
import {
  PERSON_FAMILIES,
  PERSON_SEARCH_FIELDS,
  PERSON_SEARCH_PATH,
  RESOURCES,
  frameOf,
  personSearchAnswerSchema,
  personSearchQuerySchema,
  phoneDigitsOf,
  type PersonFamily,
  type PersonGroup,
  type PersonHit,
} from '@campus/contract';
import { desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { schools } from '../db/schema/resources.js';
import { getRequestState, type CallerState } from '../platform/caller-state.js';
import { requireFrame } from '../platform/permissions.js';
import { documentedCall } from '../platform/route-docs.js';
import { ok } from '../platform/envelope.js';
import type { AuthUser } from '../platform/auth.js';
import { allConditions, columnOf, scopeWhere } from '../resources/engine/query.js';
import { tableOf } from '../resources/engine/registry.js';
import { textCondition } from '../resources/engine/search-rules.js';
import type { Database } from '../db/client.js';

interface SearchTerms {
  name: string;
  /** Set when the box reads as 4+ digits of a phone number. */
  phoneDigits: string | null;
  exact: string;
}

function holdsPageOf(state: CallerState, family: PersonFamily): boolean {
  return RESOURCES[family]!.views.some((view) => state.grant.has(frameOf(view.frame).fixedId));
}

/** The rows of one family matching the box, newest first, one more than `limit` to tell whether more exist. */
async function searchFamily(db: Database, user: AuthUser, state: CallerState, family: PersonFamily, terms: SearchTerms, limit: number): Promise<PersonGroup> {
  const def = RESOURCES[family]!;
  const table = tableOf(def);
  const fields = PERSON_SEARCH_FIELDS[family];
  const column = (field: string) => columnOf(table, field);
  const nullText = sql<string | null>`null::text`;
  const phone = fields.phone ? column('phoneNum') : nullText;
  const cardNo = fields.exact.includes('cardNo') ? column('cardNo') : nullText;
  const studentNo = fields.exact.includes('studentNo') ? column('studentNo') : nullText;

  // The families' own search rules (search-rules.ts), so the box matches as their pages do. Each
  // alternative is indexed on its own (pieces for the name, trigram for the phone, btree for the
  // numbers): the planner answers the OR with a bitmap of those indexes instead of reading the scope's rows.
  const nameMatch = textCondition('name', column('name'), terms.name);
  const phoneMatch = terms.phoneDigits && fields.phone ? textCondition('digits', column('phoneNum'), terms.phoneDigits) : undefined;
  const exactMatches = fields.exact.map((field) => eq(column(field), terms.exact));
  const matched = sql<PersonHit['matched']>`case
    when ${nameMatch} then 'name'
    ${phoneMatch ? sql`when ${phoneMatch} then 'phoneNum'` : sql``}
    ${sql.join(fields.exact.map((field) => sql`when ${column(field)} = ${terms.exact} then ${field}`), sql` `)}
    end`;
  const where = allConditions(scopeWhere({ def, scope: state.scope, user }, table), or(nameMatch, phoneMatch, ...exactMatches) as SQL);
  const rows = await db
    .select({
      id: sql<number>`${column('id')}`,
      name: sql<string>`${column('name')}`,
      schoolId: sql<number | null>`${column('schoolId')}`,
      schoolName: schools.schoolName,
      phoneNum: phone,
      cardNo,
      studentNo,
      matched,
    })
    .from(table)
    .leftJoin(schools, eq(schools.id, column('schoolId')))
    .where(where)
    .orderBy(desc(column('id')))
    .limit(limit + 1);
  return { family, items: rows.slice(0, limit), hasMore: rows.length > limit };
}

export const personSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    PERSON_SEARCH_PATH,
    {
      onRequest: requireFrame('personSearch'),
      schema: {
        ...documentedCall('Person', 'Search', 'Students, parents, teachers and pick-up persons by name, phone digits, card or student number, in scope', personSearchAnswerSchema),
        querystring: personSearchQuerySchema,
      },
    },
    async (request) => {
      const { q, limit } = request.query;
      const state = await getRequestState(request);
      const digits = phoneDigitsOf(q);
      const terms: SearchTerms = { name: q, phoneDigits: digits, exact: q };
      const families = PERSON_FAMILIES.filter((family) => holdsPageOf(state, family));
      // One family after the other: four parallel queries would hold four of the pool's connections for one box.
      const groups: PersonGroup[] = [];
      for (const family of families) groups.push(await searchFamily(app.db, request.user, state, family, terms, limit));
      return ok({ groups });
    },
  );
};
