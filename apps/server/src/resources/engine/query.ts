/** Search conditions, the row shape answered to clients, and bounded counts. */
import { SEARCH_COUNT_CAP, columnName, isLinkField, isStoredElsewhere, type FieldDef, type ResourceDef } from '@campus/contract';
import { Column, Param, and, asc, desc, eq, getTableName, gte, inArray, is, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgTimestamp, alias, type AnyPgColumn, type PgColumn } from 'drizzle-orm/pg-core';
import { accountScopeCondition, scopeAgentOf, scopeTerm, type ScopePurpose } from '../../platform/scope.js';
import { allOf, anyOf, boundTerm, fixedTerm, termSql, type Term } from '../../platform/sql-terms.js';
import { visibleFields, type EngineContext, type Row } from './context.js';
import { hooksOf, type ReadConditionContext } from './hooks.js';
import { referenceTargetOf, tableOf } from './registry.js';
import { isTextRule, sortExpression, textTerm } from './search-rules.js';
import type { ResourceTable } from '../../db/schema/table.js';
import { linkFieldsOf, linkTableNamed, type LinkField } from '../../db/schema/link-table.js';

/** Exact counts stop here: beyond it the total is shown as "10,000+" (an exact count over a large scope costs seconds). */
export const COUNT_CAP = SEARCH_COUNT_CAP;


/** The column of a field in a table built at run time; a missing one is a programming error. */
export function columnOf(table: ResourceTable, field: string): PgColumn {
  const column = (table as unknown as Record<string, PgColumn>)[field];
  if (!column) throw new Error(`${table._.name} has no column for '${field}'`);
  return column;
}

/** A link field's table with its owner and target columns. */
export function linkColumns(field: LinkField) {
  const table = linkTableNamed(field.link.table);
  return { table, owner: columnOf(table, field.link.owner), target: columnOf(table, field.link.target) };
}

/** The Search condition of a filtered link field: rows whose link table holds `targetId` (a value or a placeholder). */
export function linkCondition(def: ResourceDef, name: string, targetId: unknown, ownerId: PgColumn): SQL {
  const field = linkFieldsOf(def).find(([candidate]) => candidate === name)?.[1];
  if (!field) throw new Error(`${def.name}.${name} filters a multiple reference without a link table`);
  const { table, owner, target } = linkColumns(field);
  return sql`exists (select 1 from ${table} where ${owner} = ${ownerId} and ${target} = ${targetId})`;
}

/**
 * The condition that keeps rows inside the caller's data scope; `manage` for rows about to be written,
 * which for shared accounts is narrower than what the caller may read (platform/scope.ts).
 */
export function scopeWhere(ctx: Pick<EngineContext, 'def' | 'scope' | 'user'> & ReadConditionContext, table: ResourceTable, purpose: ScopePurpose = 'read'): SQL | undefined {
  const term = scopeTermOf(ctx, table, purpose);
  return term && termSql(term);
}

/** scopeWhere as a term (platform/sql-terms.ts). */
export function scopeTermOf(ctx: Pick<EngineContext, 'def' | 'scope' | 'user'> & ReadConditionContext, table: ResourceTable, purpose: ScopePurpose = 'read'): Term | undefined {
  const visible = hooksOf(ctx.def).visibleWhere?.(ctx, table);
  const inScope = scopeOnly(ctx, table, purpose);
  if (!visible) return inScope;
  return inScope ? allOf([inScope, fixedTerm(visible)]) : fixedTerm(visible);
}

function scopeOnly(ctx: Pick<EngineContext, 'def' | 'scope' | 'user'>, table: ResourceTable, purpose: ScopePurpose): Term | undefined {
  const { scope } = ctx.def;
  if (scope.via === 'global') return undefined;
  if (scope.via === 'account') {
    const columns = { id: columnOf(table, 'id'), type: columnOf(table, 'type'), parentId: columnOf(table, 'parentId') };
    return fixedTerm(accountScopeCondition(ctx.user, ctx.scope, scope.types, columns, purpose));
  }
  const inSchools = scopeTerm(ctx.scope, columnOf(table, scope.via === 'self' ? 'id' : scope.field));
  const agentId = scope.via === 'school' && scope.agentOwner && purpose === 'read' ? scopeAgentOf(ctx.user) : null;
  if (agentId === null) return inSchools;
  return anyOf([inSchools, boundTerm('agentOwned', [agentId], ([agent]) => agentOwnedCondition(ctx.def, table, agent))]);
}

/** Rows the family's `agentOwner` says belong to `agentId`: on the row, or on the row its `through` reference names. */
function agentOwnedCondition(def: ResourceDef, table: ResourceTable, agentId: unknown): SQL {
  const owner = def.scope.via === 'school' ? def.scope.agentOwner : undefined;
  if (!owner) throw new Error(`${def.name} declares no agentOwner`);
  if (!owner.through) return eq(columnOf(table, owner.field), agentId);
  const through = def.fields[owner.through];
  if (through?.kind !== 'reference') throw new Error(`${def.name}.${owner.through}: agentOwner goes through a field that is no reference`);
  const target = referenceTargetOf(through);
  return sql`${columnOf(table, owner.through)} in (select ${columnOf(target.table, target.key)} from ${target.table} where ${columnOf(target.table, owner.field)} = ${agentId})`;
}

/** Conditions from parsed filters (placeholders already removed by the schema) and the view's fixed values. */
export function filterWhere(ctx: Pick<EngineContext, 'def' | 'view'> & ReadConditionContext, table: ResourceTable, filters: Row): SQL[] {
  return filterTerms(ctx, table, filters).map(termSql);
}

/** filterWhere as terms (platform/sql-terms.ts), each shape naming its field. */
export function filterTerms(ctx: Pick<EngineContext, 'def' | 'view'> & ReadConditionContext, table: ResourceTable, filters: Row): Term[] {
  const terms: Term[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (!field.filter) continue;
    if (field.computed) {
      // Not a column: the family says what the value means (hooks.computedFilters).
      const value = filters[name];
      const compute = hooksOf(ctx.def).computedFilters?.[name];
      if (!compute) throw new Error(`${ctx.def.name}.${name} is a computed filter without a computedFilters hook`);
      if (value !== undefined) terms.push(fixedTerm(compute(ctx, table, value)));
      continue;
    }
    if (isLinkField(field)) {
      // Not a column: rows whose link table holds the value (e.g. parents of one student).
      const value = filters[name];
      if (value !== undefined) terms.push(boundTerm(`${name} linked`, [Number(value)], ([id]) => linkCondition(ctx.def, name, id, columnOf(table, 'id'))));
      continue;
    }
    const column = columnOf(table, name);
    // A Param with the column's encoder, as drizzle's eq binds a value: a placeholder then gets it too.
    const bound = (value: unknown) => new Param(value, column);
    if (field.filter === 'range') {
      const from = filters[`${name}From`];
      const to = filters[`${name}To`];
      if (from !== undefined) terms.push(boundTerm(`${name} >=`, [toDb(field, from)], ([v]) => gte(column, bound(v))));
      if (to !== undefined) terms.push(boundTerm(`${name} <=`, [toDb(field, to)], ([v]) => lte(column, bound(v))));
      continue;
    }
    const value = filters[name];
    if (value === undefined) continue;
    if (field.filter === 'in') {
      const values = (value as unknown[]).map((v) => toDb(field, v));
      terms.push(boundTerm(`${name} in ${values.length}`, values, (params) => inArray(column, params.map(bound))));
    } else if (isTextRule(field.filter)) {
      const term = textTerm(field.filter, column, String(value));
      terms.push({ ...term, shape: `${name} ${term.shape}` });
    } else terms.push(boundTerm(`${name} =`, [toDb(field, value)], ([v]) => eq(column, bound(v))));
  }
  return [...terms, ...viewConditions(ctx, table).map((condition) => fixedTerm(condition, 'view'))];
}

/** The values the page (view) fixes, e.g. License `useFor` on codeManageA. */
export function viewConditions(ctx: Pick<EngineContext, 'view'>, table: ResourceTable): SQL[] {
  return Object.entries(ctx.view.fixed ?? {}).map(([name, value]) => eq(columnOf(table, name), value));
}

/** Converts a wire value to what the column stores. */
export function toDb(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (field.kind === 'datetime') return new Date(String(value));
  if (field.kind === 'enum' && typeof field.options[0]?.value === 'number') return Number(value);
  return value;
}

/** PostgreSQL's text of a time with time zone in UTC, as `2026-03-02 09:00:00.12+00`. */
const UTC_TIME_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * PostgreSQL's text of a time in UTC written as `Date.toISOString` writes it (milliseconds, the
 * rest cut off), or undefined for any other text (another session time zone, a year past 9999).
 */
export function isoOfUtcText(text: string): string | undefined {
  const match = UTC_TIME_TEXT.exec(text);
  return match ? `${match[1]}T${match[2]}.${`${match[3] ?? ''}000`.slice(0, 3)}Z` : undefined;
}

/** Converts a stored value to its wire form. */
export function fromDb(field: FieldDef | undefined, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (field?.kind === 'money' && typeof value === 'string') return Number(value);
  return value;
}

/** ORDER BY of a Search: the asked field (names in pinyin order, search-rules.ts), then id. */
export function orderOf(ctx: Pick<EngineContext, 'def'>, table: ResourceTable, sortField?: string, sortOrder?: 'asc' | 'desc'): SQL[] {
  const field = sortField ?? ctx.def.defaultSort?.field ?? 'id';
  const direction = sortOrder ?? ctx.def.defaultSort?.order ?? 'desc';
  const by = direction === 'asc' ? asc : desc;
  // id breaks ties so pages never repeat or skip rows.
  return field === 'id' ? [by(columnOf(table, 'id'))] : [sortExpression(ctx.def.fields[field], columnOf(table, field), direction), by(columnOf(table, 'id'))];
}

/** A select list: each answered key and the column or expression it reads. */
export type Selection = Record<string, AnyPgColumn | SQL>;

/**
 * The select list: visible fields, id/version/timestamps, and for each reference the display value
 * of the referenced row as `${field}Label`, read by a subquery on the referenced key (unique). A
 * subquery per label, not a LEFT JOIN: each is planned alone, where joins made the planner weigh
 * their orders on every call — half of a Search page's PostgreSQL time (docs/performance.md).
 */
export function selection(ctx: Pick<EngineContext, 'def' | 'probes'>, table: ResourceTable): Selection {
  // Log rows are never updated: they have no version or updatedAt (log.ts).
  const stamps = ctx.def.mode === 'log' ? ['id', 'createdAt'] : ['id', 'version', 'createdAt', 'updatedAt'];
  const fields: Selection = Object.fromEntries(stamps.map((name) => [name, columnOf(table, name)]));
  for (const [name, field] of visibleFields(ctx)) {
    if (isStoredElsewhere(field)) continue; // not a column: readLinks or the lines engine fills it in
    fields[name] = columnOf(table, name);
    if (field.kind !== 'reference') continue;
    const target = referenceTargetOf(field);
    // Aliased: a reference to the family's own table must not shadow the outer row.
    const aliasName = `ref_${columnName(name)}`;
    const referenced = alias(target.table, aliasName) as unknown as ResourceTable;
    fields[`${name}Label`] = sql`(select ${columnOf(referenced, target.display)} from ${sql.identifier(getTableName(target.table))} as ${sql.identifier(aliasName)} where ${columnOf(referenced, target.key)} = ${columnOf(table, name)})`;
  }
  return fields;
}

/**
 * Maps rows that come as arrays in the select list's order (a statement prepared with array rows), each
 * column decoded as drizzle decodes it, and to wire form when `wire` names the family: drizzle's own
 * mapping, with its checks per row and column, was a quarter of a large export's CPU and a share of a
 * Search's (docs/performance.md).
 */
export function arrayRowsOf(fields: Selection, wire?: ResourceDef): (rows: unknown[][]) => Row[] {
  const columns = Object.entries(fields).map(([key, field]): { key: string; read?: (value: unknown) => unknown } => {
    // Labels are plain text expressions: nothing to decode.
    const decode = is(field, Column) ? (value: unknown) => field.mapFromDriverValue(value) : (value: unknown) => value;
    const fieldDef = wire?.fields[key];
    // A column drizzle hands over as the driver read it (text, a flag), not money: the value is its wire form.
    if (is(field, Column) && field.mapFromDriverValue === Column.prototype.mapFromDriverValue && fieldDef?.kind !== 'money') return { key };
    if (!wire) return { key, read: decode };
    const toWireForm = (value: unknown) => fromDb(fieldDef, decode(value));
    // A time in UTC is rewritten in place: parsing it to a Date to print it again was 5 % of a Search's CPU.
    if (is(field, PgTimestamp) && field.withTimezone) return { key, read: (value) => (typeof value === 'string' && isoOfUtcText(value)) || toWireForm(value) };
    return { key, read: toWireForm };
  });
  return (rows) =>
    rows.map((values) => {
      const row: Row = {};
      for (let i = 0; i < columns.length; i += 1) {
        const { key, read } = columns[i]!;
        const value = values[i];
        row[key] = value === null || value === undefined ? null : read ? read(value) : value;
      }
      return row;
    });
}

/** Maps a selected database row to its wire form. */
export function toWire(def: ResourceDef, row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) out[key] = fromDb(def.fields[key], value);
  return out;
}

/** Selects rows of a family with references resolved. */
export function selectRows(ctx: EngineContext, where: SQL | undefined) {
  const table = tableOf(ctx.def);
  return ctx.db.select(selection(ctx, table)).from(table).where(where).$dynamic();
}

/**
 * A page bound written into the statement's text. drizzle binds a number as a parameter; an SQL
 * object in its place is written as it stands (its builder tells the two apart at run time).
 */
export function writtenBound(value: number): Placeholder {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`a page bound must be a whole number, not ${value}`);
  // The builder's type admits numbers and placeholders only; it writes any SQL object in place.
  return sql.raw(String(value)) as unknown as Placeholder;
}

/**
 * One page of a Search. The page's ids are chosen first, by a subquery that the `(scope key, filter,
 * id)` indexes answer on their own (index-only scan, then a top-N sort by id); only those rows are
 * then read, with their labels. Written as one query, the labels would be read for every row OFFSET
 * skips: page 200 × 50 cost 33 ms instead of 3 on 1M students (docs/performance.md).
 */
export function selectPage(ctx: EngineContext, where: SQL | undefined, order: SQL[], limit: number | Placeholder, offset: number | Placeholder, fields: Selection = selection(ctx, tableOf(ctx.def))) {
  const table = tableOf(ctx.def);
  const id = columnOf(table, 'id');
  const page = ctx.db.select({ pageId: sql<number>`${id}`.as('page_id') }).from(table).where(where).orderBy(...order).limit(limit).offset(offset).as('page');
  return ctx.db.select(fields).from(page).innerJoin(table, eq(id, page.pageId)).orderBy(...order);
}

/** The statement counting matching rows up to `cap` + 1, so an answer can say "more than the cap". */
export function boundedCountQuery(ctx: EngineContext, where: SQL | undefined, cap = COUNT_CAP) {
  const table = tableOf(ctx.def);
  const inner = ctx.db.select({ one: sql`1` }).from(table).where(where).limit(cap + 1).as('capped');
  // Aliased: the bounded count runs it as raw SQL and reads the column by name.
  return ctx.db.select({ n: sql<number>`count(*)::int`.as('n') }).from(inner);
}

/** The conditions of a Search: the caller's scope, then the filters and the view's fixed values. */
export function searchTerms(ctx: EngineContext, table: ResourceTable, filters: Row): Term[] {
  const scope = scopeTermOf(ctx, table);
  return scope ? [scope, ...filterTerms(ctx, table, filters)] : filterTerms(ctx, table, filters);
}

export function allConditions(...parts: (SQL | SQL[] | undefined)[]): SQL | undefined {
  return and(...parts.flat().filter((p): p is SQL => p !== undefined));
}
