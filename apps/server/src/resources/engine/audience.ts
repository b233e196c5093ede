/**
 * Where an audience reaches (a family declaring audienceFields): terminals (the screen texts of a
 * school), the mall's releases, the parent app's questionnaires and the questionnaire's public link
 * all ask it, so it sits below those families. The chosen schools' link table is the declaration's.
 */
import { POSTER_AUDIENCE_ALL, POSTER_AUDIENCE_AREA, POSTER_AUDIENCE_SCHOOLS, type ResourceDef } from '@campus/contract';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { schools } from '../../db/schema/index.js';
import { linkFieldsOf } from '../../db/schema/link-table.js';
import type { Row } from './context.js';
import { linkColumns } from './query.js';
import { tableOf } from './registry.js';

/** The link table of a family's chosen schools (`audienceFields`' schoolIds). */
function chosenSchoolsOf(def: ResourceDef) {
  const field = linkFieldsOf(def).find(([name]) => name === 'schoolIds')?.[1];
  if (!field) throw new Error(`${def.name} declares no audienceFields`);
  return linkColumns(field);
}

/**
 * The condition that a row's audience reaches the school `schoolId` (an id, or SQL naming it in the
 * statement): all schools, the school's province (and city, when one is named), or the school among
 * those chosen.
 */
export function audienceReachesSchool(def: ResourceDef, schoolId: number | SQL): SQL {
  const table = tableOf(def);
  const link = chosenSchoolsOf(def);
  return sql`(${table.audience} = ${POSTER_AUDIENCE_ALL}
    or (${table.audience} = ${POSTER_AUDIENCE_AREA} and exists (select 1 from ${schools} where ${schools.id} = ${schoolId} and ${schools.province} = ${table.province} and (${table.city} is null or ${table.city} = '' or ${schools.city} = ${table.city})))
    or (${table.audience} = ${POSTER_AUDIENCE_SCHOOLS} and exists (select 1 from ${link.table} where ${link.owner} = ${table.id} and ${link.target} = ${schoolId})))`;
}

/** The condition keeping the schools (a query over `schools`) that one stored row's audience reaches. */
export function schoolsInAudience(def: ResourceDef, row: Row): SQL {
  const audience = Number(row.audience);
  if (audience === POSTER_AUDIENCE_AREA) return and(eq(schools.province, String(row.province ?? '')), row.city ? eq(schools.city, String(row.city)) : undefined)!;
  if (audience !== POSTER_AUDIENCE_SCHOOLS) return sql`true`;
  const link = chosenSchoolsOf(def);
  return sql`${schools.id} in (select ${link.target} from ${link.table} where ${link.owner} = ${row.id})`;
}
