/**
 * 葱米, the parents' reward points: a ledger of immutable entries per parent (points_entries); a
 * balance is their sum. Spending takes a transaction-scoped advisory lock per parent before it reads
 * the balance, so two spends of one parent run one after the other and the balance never goes below
 * zero (a row lock would need a balance row; the sum over the parent's entries is indexed). Earning
 * is idempotent per source: one entry per parent, kind and source (a unique index).
 */
import { POINTS_ENTRY_KIND_OPTIONS } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { badRequest, msg } from '../platform/errors.js';

type Rows = { rows: Record<string, unknown>[] };
export type PointsKind = (typeof POINTS_ENTRY_KIND_OPTIONS)[number]['value'];

/** The advisory lock class of points: the second key is the parent's id. */
const POINTS_LOCK_CLASS = 29_001;

/** Serialises the point moves of one parent until the caller's transaction ends. */
export async function lockPointsOf(tx: Executor, parentId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${POINTS_LOCK_CLASS}::int, ${parentId}::int)`);
}

/** A parent's balance: the sum of its entries. */
export async function pointsBalance(db: Executor, parentId: number): Promise<number> {
  const found = (await db.execute(sql`select coalesce(sum(amount), 0)::bigint as balance from points_entries where parent_id = ${parentId}`)) as unknown as Rows;
  return Number(found.rows[0]?.balance ?? 0);
}

/** One entry to post for a parent. */
export interface PointsMove {
  kind: PointsKind;
  /** Positive earns, negative spends. */
  amount: number;
  /** What it is about ('MarketOrder:12'): a second entry of the same kind and source is not posted. */
  source: string;
  reason: string;
  now: Date;
}

/**
 * Posts an entry in the caller's transaction: a spend (negative) locks the parent's points and is
 * refused (field `points`) beyond the balance. Answers whether it was posted (false: that source
 * had its entry already).
 */
export async function postPoints(tx: Executor, parentId: number, move: PointsMove): Promise<boolean> {
  if (!Number.isSafeInteger(move.amount) || move.amount === 0) return false;
  if (move.amount < 0) {
    await lockPointsOf(tx, parentId);
    const balance = await pointsBalance(tx, parentId);
    if (balance + move.amount < 0) throw badRequest([{ path: 'points', ...msg('mall.pointsNotEnough', { balance }) }]);
  }
  const inserted = (await tx.execute(sql`
    insert into points_entries (posted_at, parent_id, school_id, kind, amount, source, reason)
    select ${move.now.toISOString()}::timestamptz, p.id, p.school_id, ${move.kind}, ${move.amount}, ${move.source}, ${move.reason}
    from parents p where p.id = ${parentId}
    on conflict (parent_id, kind, source) do nothing
    returning id`)) as unknown as Rows;
  return inserted.rows.length > 0;
}

/** A parent's entries, newest first, and its balance: what the app's "my points" shows. */
export async function myPoints(db: Executor, parentId: number, page: { pageIndex: number; pageSize: number }) {
  const entries = (await db.execute(sql`
    select id, posted_at as "postedAt", kind, amount, reason from points_entries where parent_id = ${parentId}
    order by posted_at desc, id desc limit ${page.pageSize} offset ${(page.pageIndex - 1) * page.pageSize}`)) as unknown as Rows;
  return {
    balance: await pointsBalance(db, parentId),
    items: entries.rows.map((row) => ({ id: Number(row.id), postedAt: new Date(String(row.postedAt)), kind: Number(row.kind), amount: Number(row.amount), reason: String(row.reason ?? '') })),
  };
}
