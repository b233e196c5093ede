/**
 * Sessions of the parent app: opaque tokens stored hashed in `parent_sessions`, a table apart from
 * the console's, so neither kind of token is ever found as the other. The lookup answers the parent
 * with its children and their schools in the same statement: every app call needs them to limit what
 * it reads, and reading them fresh costs no second round trip (a link changed in the console shows at
 * the next call, with no cache to invalidate).
 */
import { eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { parentSessions } from '../db/schema/index.js';
import { EXPIRED_SESSION_RETENTION_MS, hashToken, mintSessionToken } from '../platform/sessions.js';

/** A parent stays signed in on a phone for a month without opening the app, and signs in again after three. */
export const PARENT_SESSION_LIMITS = { idleMs: 30 * 86_400_000, maxAgeMs: 90 * 86_400_000 } as const;

/** Sliding expiry is written at most this often. */
const LAST_SEEN_WRITE_INTERVAL_MS = 5 * 60_000;

/** The signed-in parent as every channel call sees it on `request.parent`. */
export interface AppParent {
  id: number;
  name: string;
  phoneNum: string;
  sessionId: number;
  /** The parent's children (its links), with each one's school. */
  children: { id: number; schoolId: number }[];
  /** The schools of those children, distinct. */
  schoolIds: number[];
}

export type ParentSessionLookup = { status: 'valid'; parent: AppParent; enabled: boolean } | { status: 'expired' } | { status: 'unknown' };

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Starts a parent's session; answers the token (shown once) and its expiry. */
export async function createParentSession(db: Executor, input: { parentId: number; now: Date; ip?: string; userAgent?: string }) {
  const { token, tokenHash } = mintSessionToken();
  const expiresAt = new Date(input.now.getTime() + PARENT_SESSION_LIMITS.idleMs);
  await db.delete(parentSessions).where(lt(parentSessions.expiresAt, new Date(input.now.getTime() - EXPIRED_SESSION_RETENTION_MS)));
  const [row] = await db
    .insert(parentSessions)
    .values({ tokenHash, parentId: input.parentId, createdAt: input.now, expiresAt, lastSeenAt: input.now, ip: input.ip ?? null, userAgent: input.userAgent?.slice(0, 500) ?? null })
    .returning({ id: parentSessions.id });
  return { token, sessionId: row!.id, expiresAt };
}

/** The parent's children with their schools, as SQL (a JSON array of [student id, school id]) over the row alias `p`. */
const CHILDREN_OF_P = sql`coalesce((select json_agg(json_build_array(st.id, st.school_id) order by st.id)
  from parent_students ps join students st on st.id = ps.student_id where ps.parent_id = p.id), '[]'::json)`;

function appParentOfRow(row: Record<string, unknown>, sessionId: number): AppParent {
  const pairs = (typeof row.children === 'string' ? JSON.parse(row.children) : row.children) as [number, number][];
  const children = pairs.map(([id, schoolId]) => ({ id: Number(id), schoolId: Number(schoolId) }));
  return { id: Number(row.parentId), name: String(row.name), phoneNum: String(row.phoneNum), sessionId, children, schoolIds: [...new Set(children.map((child) => child.schoolId))] };
}

/** A parent as the channel sees it, without a session (the demo seed plays parents in-process). */
export async function appParentOf(db: Executor, parentId: number): Promise<AppParent | undefined> {
  const found = (await db.execute(sql`select p.id as "parentId", p.name, p.phone_num as "phoneNum", ${CHILDREN_OF_P} as children from parents p where p.id = ${parentId}`)) as unknown as {
    rows: Record<string, unknown>[];
  };
  return found.rows[0] ? appParentOfRow(found.rows[0], 0) : undefined;
}

/** Finds a token's session with its parent and children, sliding its expiry (never past the absolute limit). */
export async function touchParentSession(db: Executor, token: string, now: Date): Promise<ParentSessionLookup> {
  const found = (await db.execute(sql`
    select s.id, s.parent_id as "parentId", s.created_at as "createdAt", s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
      p.name, p.phone_num as "phoneNum", coalesce(p.enabled, true) as enabled, ${CHILDREN_OF_P} as children
    from parent_sessions s join parents p on p.id = s.parent_id
    where s.token_hash = ${hashToken(token)}`)) as unknown as { rows: Record<string, unknown>[] };
  const row = found.rows[0];
  if (!row) return { status: 'unknown' };
  const createdAt = toDate(row.createdAt);
  if (toDate(row.expiresAt).getTime() <= now.getTime() || createdAt.getTime() + PARENT_SESSION_LIMITS.maxAgeMs <= now.getTime()) return { status: 'expired' };
  const sessionId = Number(row.id);
  if (now.getTime() - toDate(row.lastSeenAt).getTime() >= LAST_SEEN_WRITE_INTERVAL_MS) {
    const expiresAt = new Date(Math.min(now.getTime() + PARENT_SESSION_LIMITS.idleMs, createdAt.getTime() + PARENT_SESSION_LIMITS.maxAgeMs));
    await db.update(parentSessions).set({ lastSeenAt: now, expiresAt }).where(eq(parentSessions.id, sessionId));
  }
  return { status: 'valid', enabled: row.enabled === true, parent: appParentOfRow(row, sessionId) };
}

/** Ends one session (sign-out). */
export async function endParentSession(db: Executor, sessionId: number): Promise<void> {
  await db.delete(parentSessions).where(eq(parentSessions.id, sessionId));
}

/** Ends every session of a parent (disabled). */
export async function endParentSessions(db: Executor, parentId: number): Promise<void> {
  await db.delete(parentSessions).where(eq(parentSessions.parentId, parentId));
}
