/**
 * What the log benchmarks share: filling a log table with millions of rows (INSERT … SELECT
 * generate_series per million, secondary indexes dropped and built once after), and the engine's own
 * page query of a log Search — page 1, or the page a cursor opens — for a caller and filters.
 * Used by bench:logs (the operation log) and bench:search (recognition records).
 */
import { logSearchSchemaOf, type ResourceDef } from '@campus/contract';
import type { Database } from '@campus/server/src/db/client.js';
import type { EngineContext, Row } from '@campus/server/src/resources/engine/context.js';
import { cursorAt, decodeCursor, logAskOf, logOrder, logWhere } from '@campus/server/src/resources/engine/log.js';
import { selectPage } from '@campus/server/src/resources/engine/query.js';
import { readPage } from '@campus/server/src/resources/engine/search-statement.js';
import { tableOf } from '@campus/server/src/resources/engine/registry.js';
import { sql } from 'drizzle-orm';

const BATCH = 1_000_000;

export interface LogLoad {
  table: string;
  /** Rows the table should hold; nothing is written when it holds as many already. */
  rows: number;
  /** The INSERT … SELECT writing rows number `from` to `to` (both included) of the load. */
  insertSql(from: number, to: number): string;
}

const rowsOf = async (db: Database, table: string) =>
  Number(((await db.execute(sql.raw(`select count(*)::bigint as n from ${table}`))) as unknown as { rows: { n: string }[] }).rows[0]!.n);

/**
 * Tops the table up to `rows`, in one transaction (a failed load leaves the table and its indexes as
 * they were): its secondary indexes are dropped first and built once at the end, which costs a
 * fraction of keeping ten indexes up to date row by row. Answers the rows the table then holds.
 */
export async function loadLogRows(db: Database, load: LogLoad): Promise<number> {
  const have = await rowsOf(db, load.table);
  if (have >= load.rows) return have;
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
  // Every index but the primary key (unique ones too: the generated rows respect them).
  const indexes = ((await db.execute(
    sql`select indexname, indexdef from pg_indexes where tablename = ${load.table} and indexname not in (select conname from pg_constraint where contype = 'p')`,
  )) as unknown as { rows: { indexname: string; indexdef: string }[] }).rows;
  await db.transaction(async (tx) => {
    // The generated rows name existing schools, devices and users: skipping the per-row foreign-key
    // triggers of the load (superuser only) halves it; the migrations' constraints stay in place.
    await tx.execute(sql.raw(`set local session_replication_role = replica`));
    await tx.execute(sql.raw(`set local maintenance_work_mem = '512MB'`));
    for (const index of indexes) await tx.execute(sql.raw(`drop index ${index.indexname}`));
    for (let from = have + 1; from <= load.rows; from += BATCH) {
      const to = Math.min(load.rows, from + BATCH - 1);
      await tx.execute(sql.raw(load.insertSql(from, to)));
      console.log(`${load.table}: ${to.toLocaleString('en')} rows (${seconds()} s)`);
    }
    // A partitioned table's index reads `ON ONLY parent` in pg_indexes (the parent alone, invalid
    // until each partition's is attached): built without ONLY, it is built on every partition.
    for (const index of indexes) await tx.execute(sql.raw(index.indexdef.replace(' ON ONLY ', ' ON ')));
    console.log(`${load.table}: ${indexes.length} indexes rebuilt (${seconds()} s)`);
  });
  await db.execute(sql.raw(`vacuum analyze ${load.table}`));
  return rowsOf(db, load.table);
}

/** The filters a log Search parses from `body`, without paging. */
export function logFiltersOf(def: ResourceDef, body: Row): Row {
  const { pageSize: _pageSize, pageIndex: _pageIndex, cursor: _cursor, ...filters } = logSearchSchemaOf(def).parse(body) as Row;
  return filters;
}

/** The page the log Search route reads (the same ask, logAskOf): `pageSize` rows (plus one, for `hasMore`) from the cursor on. */
export function logPageOf(ctx: EngineContext, filters: Row, pageSize: number, cursor?: string): Promise<Row[]> {
  const { ask } = logAskOf(ctx, tableOf(ctx.def), filters, new Date(), cursor ? decodeCursor(cursor) : undefined);
  return readPage(ctx, ask, pageSize + 1, 0);
}

/**
 * The cursor that opens page `page`, found once by offset, as a reader paging forward would hold it;
 * undefined when the range holds fewer pages.
 */
export async function logCursorOfPage(ctx: EngineContext, filters: Row, pageSize: number, page: number): Promise<string | undefined> {
  const table = tableOf(ctx.def);
  const { where } = logWhere(ctx, table, filters, new Date());
  const [row] = (await selectPage(ctx, where, logOrder(ctx.def, table), 1, (page - 1) * pageSize - 1)) as Row[];
  return row ? cursorAt(ctx.def, row, 'next') : undefined;
}
