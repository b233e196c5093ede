/**
 * What a parent browses and keeps in the mall: the commodities released to its school, its delivery
 * addresses and its comments. Each function takes the parent's id first after the executor and
 * reaches only that parent's rows; a row of another parent is 404.
 */
import {
  MALL_ORDER_COMPLETED,
  MALL_ORDER_RECEIVED,
  MarketAddress,
  MarketCommodityRelease,
  formatBusinessDate,
  mallAddressInputSchema,
  mallCommentSchema,
  type MallAddressInput,
  type MallCommentInput,
} from '@campus/contract';
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Executor } from '../db/client.js';
import { commodityComments, marketAddresses, marketCommodityReleases } from '../db/schema/mall.js';
import { badRequest, conflict, msg, notFound } from '../platform/errors.js';
import { messageOfIssue } from '../platform/zod-issues.js';
import { audienceReachesSchool } from '../resources/engine/audience.js';
import { checkAddress } from '../resources/engine/regions.js';
import { updateRecords } from '../resources/engine/services.js';

type Rows = { rows: Record<string, unknown>[] };

/** Parses an app input, or refuses it with field errors as the console's routes do. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw badRequest(parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), ...messageOfIssue(issue as never) })));
}

/**
 * The condition that the commodity `commodityId` is released to the school on `day`: an enabled
 * release in its window whose audience reaches the school (an id, or SQL naming it in the statement);
 * the day may be a placeholder of a statement prepared once.
 */
export function releasedToSchool(commodityId: SQL, schoolId: number | SQL, day: string | Placeholder): SQL {
  const r = marketCommodityReleases;
  return sql`exists (select 1 from ${r} where ${r.commodityId} = ${commodityId} and ${r.enabled} and ${r.startDate} <= ${day}::date and ${r.endDate} >= ${day}::date
    and ${audienceReachesSchool(MarketCommodityRelease, schoolId)})`;
}

async function schoolOf(db: Executor, parentId: number): Promise<number> {
  const found = (await db.execute(sql`select school_id as "schoolId" from parents where id = ${parentId} and enabled`)) as unknown as Rows;
  if (!found.rows[0]) throw notFound();
  return Number(found.rows[0].schoolId);
}

const COMMODITY_COLUMNS = sql`c.id, c.title, c.subtitle, c.image, c.unit_price as "unitPrice", c.stock_count as "stockCount", coalesce(c.sold_count, 0) as "soldCount",
  c.category_id as "categoryId", c.merchant_id as "merchantId"`;

const toCommodity = (row: Record<string, unknown>) => ({
  id: Number(row.id),
  title: String(row.title),
  subtitle: (row.subtitle as string | null) ?? null,
  image: (row.image as string | null) ?? null,
  unitPrice: Number(row.unitPrice),
  stockCount: Number(row.stockCount),
  soldCount: Number(row.soldCount),
  categoryId: Number(row.categoryId),
  merchantId: Number(row.merchantId),
});

/**
 * The commodities on sale to the parent's school today, paged, optionally of one category (and its
 * direct subcategories), the releases' order first.
 */
export async function releasedCommodities(db: Executor, parentId: number, query: { pageIndex: number; pageSize: number; categoryId?: number }, now: Date) {
  const schoolId = await schoolOf(db, parentId);
  const day = formatBusinessDate(now);
  const category =
    query.categoryId === undefined ? sql`true` : sql`(c.category_id = ${query.categoryId} or c.category_id in (select id from market_categories where parent_id = ${query.categoryId}))`;
  const where = sql`c.is_enabled and ${category} and ${releasedToSchool(sql`c.id`, schoolId, day)}`;
  const items = (await db.execute(sql`select ${COMMODITY_COLUMNS} from market_commodities c where ${where} order by c.id desc
    limit ${query.pageSize} offset ${(query.pageIndex - 1) * query.pageSize}`)) as unknown as Rows;
  const total = (await db.execute(sql`select count(*)::int as total from market_commodities c where ${where}`)) as unknown as Rows;
  return { items: items.rows.map(toCommodity), total: Number(total.rows[0]!.total) };
}

/** One commodity on sale to the parent's school, with its detail and its shown comments; 404 otherwise. */
export async function commodityOf(db: Executor, parentId: number, commodityId: number, now: Date) {
  const schoolId = await schoolOf(db, parentId);
  const found = (await db.execute(sql`select ${COMMODITY_COLUMNS}, c.detail from market_commodities c
    where c.id = ${commodityId} and c.is_enabled and ${releasedToSchool(sql`c.id`, schoolId, formatBusinessDate(now))}`)) as unknown as Rows;
  const row = found.rows[0];
  if (!row) throw notFound();
  const comments = (await db.execute(sql`select id, score, content, image1, image2, image3, reply, created_at as "createdAt" from commodity_comments
    where commodity_id = ${commodityId} and is_shown order by id desc limit 20`)) as unknown as Rows;
  return { ...toCommodity(row), detail: (row.detail as string | null) ?? '', comments: comments.rows };
}

/** The parent's delivery addresses, the default first. */
export async function myAddresses(db: Executor, parentId: number) {
  return db.select().from(marketAddresses).where(eq(marketAddresses.parentId, parentId)).orderBy(sql`${marketAddresses.isDefault} desc`, sql`${marketAddresses.id} desc`);
}

/**
 * Adds (no `addressId`) or corrects one of the parent's addresses; a default address makes the
 * parent's others not default. The region is checked as the console checks it.
 */
export async function saveAddress(db: Database, parentId: number, addressId: number | null, input: MallAddressInput, now: Date): Promise<{ id: number }> {
  const values = checkAddress(MarketAddress, { ...parseInput(mallAddressInputSchema, input) }) as MallAddressInput;
  return db.transaction(async (tx) => {
    const schoolId = await schoolOf(tx, parentId);
    let id: number;
    if (addressId === null) {
      const [added] = await tx
        .insert(marketAddresses)
        .values({ ...values, parentId, schoolId, isDefault: values.isDefault ?? false, createdAt: now, updatedAt: now })
        .returning({ id: marketAddresses.id });
      id = Number(added!.id);
    } else {
      id = addressId;
      const [own] = await tx.select({ id: marketAddresses.id }).from(marketAddresses).where(and(eq(marketAddresses.id, id), eq(marketAddresses.parentId, parentId))).for('update');
      if (!own) throw notFound(msg('error.addressNotFound'));
      await updateRecords(tx, MarketAddress, [id], { values: { ...values }, now });
    }
    if (values.isDefault) {
      const others = await tx.select({ id: marketAddresses.id }).from(marketAddresses).where(and(eq(marketAddresses.parentId, parentId), eq(marketAddresses.isDefault, true), sql`${marketAddresses.id} <> ${id}`));
      await updateRecords(tx, MarketAddress, others.map((other) => other.id), { values: { isDefault: false }, now });
    }
    return { id };
  });
}

/** Deletes one of the parent's addresses (orders keep the address they were placed with). */
export async function deleteAddress(db: Executor, parentId: number, addressId: number): Promise<void> {
  const deleted = await db.delete(marketAddresses).where(and(eq(marketAddresses.id, addressId), eq(marketAddresses.parentId, parentId))).returning({ id: marketAddresses.id });
  if (deleted.length === 0) throw notFound(msg('error.addressNotFound'));
}

/**
 * Checks a comment's order (the parent's own, received or completed, holding the commodity, not yet
 * commented on it) and answers the values the comment row takes from it.
 */
export async function commentTarget(db: Executor, parentId: number | null, orderId: number, commodityId: number) {
  const owner = parentId === null ? sql`true` : sql`o.parent_id = ${parentId}`;
  const found = (await db.execute(sql`select o.parent_id as "parentId", o.school_id as "schoolId", o.state,
      exists (select 1 from market_order_lines l where l.market_order_id = o.id and l.commodity_id = ${commodityId}) as "hasLine"
    from market_orders o where o.id = ${orderId} and ${owner}`)) as unknown as Rows;
  const order = found.rows[0];
  if (!order) throw notFound();
  if (![MALL_ORDER_RECEIVED, MALL_ORDER_COMPLETED].includes(Number(order.state) as typeof MALL_ORDER_RECEIVED)) throw conflict(msg('mall.notReceived'));
  if (order.hasLine !== true) throw badRequest([{ path: 'commodityId', ...msg('mall.notInOrder') }]);
  const [existing] = await db
    .select({ id: commodityComments.id })
    .from(commodityComments)
    .where(and(eq(commodityComments.orderId, orderId), eq(commodityComments.commodityId, commodityId)));
  if (existing) throw conflict(msg('mall.alreadyCommented'));
  return { parentId: Number(order.parentId), schoolId: Number(order.schoolId) };
}

/** A parent comments on a commodity of its received order: score, text and up to three images; shown at once. */
export async function commentOnOrder(db: Database, parentId: number, input: MallCommentInput, now: Date): Promise<{ id: number }> {
  const values = parseInput(mallCommentSchema, input);
  return db.transaction(async (tx) => {
    const target = await commentTarget(tx, parentId, values.orderId, values.commodityId);
    const [image1, image2, image3] = values.images ?? [];
    const [added] = await tx
      .insert(commodityComments)
      .values({ ...target, orderId: values.orderId, commodityId: values.commodityId, score: values.score, content: values.content, image1, image2, image3, isShown: true, createdAt: now, updatedAt: now })
      .returning({ id: commodityComments.id });
    return { id: added!.id };
  });
}

