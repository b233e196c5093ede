/** Search conditions, the row shape answered to clients, and bounded counts. */
import { SEARCH_COUNT_CAP, columnName, isLinkField, isStoredElsewhere, type FieldDef, type ResourceDef } from '@campus/contract';
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgColumn } from 'drizzle-orm/pg-core';
import { accountScopeCondition, scopeAgentOf, scopeCondition, type ScopePurpose } from '../../platform/scope.js';
import { visibleFields, type EngineContext, type Row } from './context.js';
import { hooksOf, type ReadConditionContext } from './hooks.js';
import { linkCondition } from './links.js';
import { referenceTargetOf, tableOf } from './registry.js';
import { isTextRule, sortExpression, textCondition } from './search-rules.js';
import type { ResourceTable } from './table.js';

/** Exact counts stop here: beyond it the total is shown as "10,000+" (an exact count over a large scope costs seconds). */
export const COUNT_CAP = SEARCH_COUNT_CAP;


/** The column of a field in a table built at run time; a missing one is a programming error. */
export function columnOf(table: ResourceTable, field: string): PgColumn {
  const column = (table as unknown as Record<string, PgColumn>)[field];
  if (!column) throw new Error(`${table._.name} has no column for '${field}'`);
  return column;
}

/**
 * The condition that keeps rows inside the caller's data scope; `manage` for rows about to be written,
 * which for shared accounts is narrower than what the caller may read (platform/scope.ts).
 */
export function scopeWhere(ctx: Pick<EngineContext, 'def' | 'scope' | 'user'> & ReadConditionContext, table: ResourceTable, purpose: ScopePurpose = 'read'): SQL | undefined {
  const visible = hooksOf(ctx.def).visibleWhere?.(ctx, table);
  const inScope = scopeOnly(ctx, table, purpose);
  return visible && inScope ? and(inScope, visible) : (visible ?? inScope);
}

function scopeOnly(ctx: Pick<EngineContext, 'def' | 'scope' | 'user'>, table: ResourceTable, purpose: ScopePurpose): SQL | undefined {
  const { scope } = ctx.def;
  if (scope.via === 'global') return undefined;
  if (scope.via === 'account') {
    const columns = { id: columnOf(table, 'id'), type: columnOf(table, 'type'), parentId: columnOf(table, 'parentId') };
    return accountScopeCondition(ctx.user, ctx.scope, scope.types, columns, purpose);
  }
  const inSchools = scopeCondition(ctx.scope, columnOf(table, scope.via === 'self' ? 'id' : scope.field));
  const agentId = scope.via === 'school' && scope.agentOwner && purpose === 'read' ? scopeAgentOf(ctx.user) : null;
  return agentId === null ? inSchools : or(inSchools, agentOwnedCondition(ctx.def, table, agentId));
}

/** Rows the family's `agentOwner` says belong to `agentId`: on the row, or on the row its `through` reference names. */
function agentOwnedCondition(def: ResourceDef, table: ResourceTable, agentId: number): SQL {
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
  const conditions: SQL[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (!field.filter) continue;
    if (field.computed) {
      // Not a column: the family says what the value means (hooks.computedFilters).
      const value = filters[name];
      const compute = hooksOf(ctx.def).computedFilters?.[name];
      if (!compute) throw new Error(`${ctx.def.name}.${name} is a computed filter without a computedFilters hook`);
      if (value !== undefined) conditions.push(compute(ctx, table, value));
      continue;
    }
    if (isLinkField(field)) {
      // Not a column: rows whose link table holds the value (e.g. parents of one student).
      const value = filters[name];
      if (value !== undefined) conditions.push(linkCondition(ctx.def, name, value, columnOf(table, 'id')));
      continue;
    }
    const column = columnOf(table, name);
    if (field.filter === 'range') {
      const from = filters[`${name}From`];
      const to = filters[`${name}To`];
      if (from !== undefined) conditions.push(gte(column, toDb(field, from)));
      if (to !== undefined) conditions.push(lte(column, toDb(field, to)));
      continue;
    }
    const value = filters[name];
    if (value === undefined) continue;
    if (field.filter === 'in') conditions.push(inArray(column, (value as unknown[]).map((v) => toDb(field, v))));
    else if (isTextRule(field.filter)) conditions.push(textCondition(field.filter, column, String(value)));
    else conditions.push(eq(column, toDb(field, value)));
  }
  return [...conditions, ...viewConditions(ctx, table)];
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

/**
 * The select list: visible fields, id/version/timestamps, and for each reference the display value
 * of the referenced row as `${field}Label` (one LEFT JOIN per reference).
 */
export function selection(ctx: Pick<EngineContext, 'def' | 'probes'>, table: ResourceTable) {
  // Log rows are never updated: they have no version or updatedAt (log.ts).
  const stamps = ctx.def.mode === 'log' ? ['id', 'createdAt'] : ['id', 'version', 'createdAt', 'updatedAt'];
  const fields: Record<string, AnyPgColumn | SQL.Aliased> = Object.fromEntries(stamps.map((name) => [name, columnOf(table, name)]));
  const joins: { table: ResourceTable; on: SQL }[] = [];
  for (const [name, field] of visibleFields(ctx)) {
    if (isStoredElsewhere(field)) continue; // not a column: readLinks or the lines engine fills it in
    fields[name] = columnOf(table, name);
    if (field.kind !== 'reference') continue;
    const target = referenceTargetOf(field);
    const joined = alias(target.table, `ref_${columnName(name)}`) as unknown as ResourceTable;
    joins.push({ table: joined, on: eq(columnOf(joined, target.key), columnOf(table, name)) });
    fields[`${name}Label`] = columnOf(joined, target.display);
  }
  return { fields, joins };
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
  const { fields, joins } = selection(ctx, table);
  let query = ctx.db.select(fields).from(table).$dynamic();
  for (const join of joins) query = query.leftJoin(join.table, join.on);
  return query.where(where);
}

/**
 * One page of a Search. The page's ids are chosen first, by a query without the reference joins that
 * the `(scope key, filter, id)` indexes answer on their own (index-only scan, then a top-N sort by id);
 * only those rows are then read and joined for their labels. Written as one query, the joins would run
 * for every row OFFSET skips: page 200 × 50 cost 33 ms instead of 3 on 1M students (docs/performance.md).
 */
export function selectPage(ctx: EngineContext, where: SQL | undefined, order: SQL[], limit: number, offset: number) {
  const table = tableOf(ctx.def);
  const id = columnOf(table, 'id');
  const pageIds = ctx.db.select({ id }).from(table).where(where).orderBy(...order).limit(limit).offset(offset);
  return selectRows(ctx, inArray(id, pageIds)).orderBy(...order);
}

/** The statement counting matching rows up to COUNT_CAP + 1, so an answer can say "more than the cap". */
export function boundedCountQuery(ctx: EngineContext, where: SQL | undefined) {
  const table = tableOf(ctx.def);
  const inner = ctx.db.select({ one: sql`1` }).from(table).where(where).limit(COUNT_CAP + 1).as('capped');
  // Aliased: countOrEstimate runs it as raw SQL and reads the column by name.
  return ctx.db.select({ n: sql<number>`count(*)::int`.as('n') }).from(inner);
}

export function allConditions(...parts: (SQL | SQL[] | undefined)[]): SQL | undefined {
  return and(...parts.flat().filter((p): p is SQL => p !== undefined));
}
