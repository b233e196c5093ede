/**
 * Where an audience reaches: terminals (the screen texts of a school) and the questionnaire's public
 * link both ask it, so it sits below the families that declare audienceFields.
 */
import { POSTER_AUDIENCE_ALL, POSTER_AUDIENCE_AREA, POSTER_AUDIENCE_SCHOOLS } from '@campus/contract';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { schools } from '../../db/schema/index.js';
import type { ResourceTable } from '../../db/schema/table.js';

/** Its link table of chosen schools: the table, its owner and school columns. */
interface AudienceLink {
  table: PgTable;
  owner: AnyColumn;
  school: AnyColumn;
}

/**
 * The condition that a row's audience (a table declaring audienceFields) reaches the school `schoolId`: all schools, the school's
 * province (and city, when one is named), or the school among those chosen.
 */
export function audienceReachesSchool(table: ResourceTable, link: AudienceLink, schoolId: number | SQL): SQL {
  return sql`(${table.audience} = ${POSTER_AUDIENCE_ALL}
    or (${table.audience} = ${POSTER_AUDIENCE_AREA} and exists (select 1 from ${schools} where ${schools.id} = ${schoolId} and ${schools.province} = ${table.province} and (${table.city} is null or ${table.city} = '' or ${schools.city} = ${table.city})))
    or (${table.audience} = ${POSTER_AUDIENCE_SCHOOLS} and exists (select 1 from ${link.table} where ${link.owner} = ${table.id} and ${link.school} = ${schoolId})))`;
}
