/**
 * A parent's inbox (parent_notices) and push devices (push_tokens), as the app channel reads and
 * writes them: every call is limited to the parent it names.
 */
import type { PushPlatform } from '@campus/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { idList } from './service.js';

type Rows = { rows: Record<string, unknown>[] };

export interface InboxNotice {
  id: number;
  studentId: number;
  kind: number;
  title: string;
  content: string;
  createdAt: string;
  readAt: string | null;
  snapshotId?: string;
}

const isoOf = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** One page of a parent's notices, newest first, with the total (of the filter) and the unread count. */
export async function inboxOf(db: Executor, parentId: number, options: { page: number; size: number; unreadOnly?: boolean }): Promise<{ rows: InboxNotice[]; total: number; unread: number }> {
  const size = Math.max(1, Math.min(100, Math.trunc(options.size)));
  const offset = (Math.max(1, Math.trunc(options.page)) - 1) * size;
  const unreadOnly = options.unreadOnly ? sql`and read_at is null` : sql``;
  const page = (await db.execute(sql`
    select id, student_id as "studentId", kind, title, content, created_at as "createdAt", read_at as "readAt", snapshot
    from parent_notices where parent_id = ${parentId} ${unreadOnly}
    order by id desc limit ${size} offset ${offset}`)) as unknown as Rows;
  const counts = (await db.execute(sql`
    select count(*) ${options.unreadOnly ? sql`filter (where read_at is null)` : sql``} as total, count(*) filter (where read_at is null) as unread
    from parent_notices where parent_id = ${parentId}`)) as unknown as Rows;
  return {
    rows: page.rows.map((row) => ({
      id: Number(row.id),
      studentId: Number(row.studentId),
      kind: Number(row.kind),
      title: String(row.title ?? ''),
      content: String(row.content ?? ''),
      createdAt: isoOf(row.createdAt),
      readAt: row.readAt === null ? null : isoOf(row.readAt),
      // The snapshot's stored address: the channel signs it for the app (as the Open API does).
      ...(typeof row.snapshot === 'string' ? { snapshotId: row.snapshot } : {}),
    })),
    total: Number(counts.rows[0]?.total ?? 0),
    unread: Number(counts.rows[0]?.unread ?? 0),
  };
}

/** Marks the parent's notices read (the listed ones, or all); answers how many changed. Others' ids are ignored. */
export async function markNoticesRead(db: Executor, parentId: number, ids: number[] | 'all', now: Date): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  const which = ids === 'all' ? sql`` : sql`and id in (${idList(ids)})`;
  const changed = (await db.execute(sql`
    update parent_notices set read_at = ${now.toISOString()}::timestamptz
    where parent_id = ${parentId} and read_at is null ${which} returning id`)) as unknown as Rows;
  return changed.rows.length;
}

/**
 * Registers a device for a parent's pushes: one row per platform and token. A token registered by
 * another parent before moves to this one (a phone changing hands stops the old parent's pushes).
 */
export async function registerPushToken(db: Executor, parentId: number, device: { platform: PushPlatform; token: string; appVersion?: string }, now: Date): Promise<{ id: number }> {
  const stored = (await db.execute(sql`
    insert into push_tokens (parent_id, platform, token, app_version, created_at, updated_at)
    values (${parentId}, ${device.platform}, ${device.token}, ${device.appVersion ?? null}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
    on conflict (platform, token) do update set parent_id = excluded.parent_id, app_version = excluded.app_version, updated_at = excluded.updated_at
    returning id`)) as unknown as Rows;
  return { id: Number(stored.rows[0]!.id) };
}
