/**
 * Sessions of the parent app: opaque tokens stored hashed in `parent_sessions`, a table apart from
 * the console's, so neither kind of token is ever found as the other; minted, expired (idle, capped by
 * an absolute lifetime), slid and purged by the one session store (platform/sessions.ts). The lookup answers the parent
 * with its children and their schools in the same statement: every app call needs them to limit what
 * it reads, and reading them with the session costs no second round trip. Where the instance keeps its
 * callers in memory the whole answer is kept (touchParentSessionKept), dropped when the database
 * notifies that a parent, its links, a child's school or its sessions changed (migration 0063).
 */
import { sql } from 'drizzle-orm';
import { namedStatement, type Database, type Executor } from '../db/client.js';
import { parentSessions } from '../db/schema/index.js';
import type { CallerMemory } from '../platform/caller-memory.js';
import { hashToken, sessionStore, type NewSession, type SessionTimes } from '../platform/sessions.js';

/** A parent stays signed in on a phone for a month without opening the app, and signs in again after three. */
export const PARENT_SESSION_LIMITS = { idleMs: 30 * 86_400_000, maxAgeMs: 90 * 86_400_000 } as const;

/** The parent app's sessions; the sliding expiry is written at most every 5 minutes (a month's idle limit needs no finer step). */
const parentSessionStore = sessionStore({ table: parentSessions, ownerColumn: 'parent_id', writeEveryMs: 5 * 60_000 });

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

/** The caller memory's shelf of parent sessions. */
const PARENT_SHELF = 'parent';

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));

/** Starts a parent's session; answers the token (shown once) and its expiry. */
export function createParentSession(db: Executor, input: { parentId: number; now: Date; ip?: string; userAgent?: string }): Promise<NewSession> {
  const { parentId, ...rest } = input;
  return parentSessionStore.start(db, { ownerId: parentId, limits: PARENT_SESSION_LIMITS, ...rest });
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

/** A parent session as its lookup reads it: its times, whether the parent is enabled, and the parent as calls see it. */
export interface FoundParentSession {
  times: SessionTimes;
  enabled: boolean;
  parent: AppParent;
}

/**
 * The session of a token hash with its parent and children, prepared once per database and named,
 * as the console's session statement is: a call whose session is not kept in memory starts here.
 */
const parentSessionStatementOf = namedStatement(
  'campus_parent_session',
  () => sql`
    select s.id, s.parent_id as "parentId", s.created_at as "createdAt", s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
      p.name, p.phone_num as "phoneNum", coalesce(p.enabled, true) as enabled, ${CHILDREN_OF_P} as children
    from parent_sessions s join parents p on p.id = s.parent_id
    where s.token_hash = ${sql.placeholder('tokenHash')}::text`,
);

/** The session stored under a token, with its parent and children; undefined when there is none. */
async function findParentSession(db: Database, token: string): Promise<FoundParentSession | undefined> {
  const found = (await parentSessionStatementOf(db).execute({ tokenHash: hashToken(token) })) as unknown as { rows: Record<string, unknown>[] };
  const row = found.rows[0];
  if (!row) return undefined;
  const sessionId = Number(row.id);
  const times = { id: sessionId, createdAt: toDate(row.createdAt), expiresAt: toDate(row.expiresAt), lastSeenAt: toDate(row.lastSeenAt) };
  return { times, enabled: row.enabled === true, parent: appParentOfRow(row, sessionId) };
}

/** Whether a found session is valid at `now`, sliding its expiry (never past the absolute limit). */
async function checkParentSession(db: Executor, found: FoundParentSession, now: Date): Promise<ParentSessionLookup> {
  if (!(await parentSessionStore.slide(db, found.times, PARENT_SESSION_LIMITS, now))) return { status: 'expired' };
  return { status: 'valid', enabled: found.enabled, parent: found.parent };
}

/** Finds a token's session with its parent and children, sliding its expiry (never past the absolute limit). */
export async function touchParentSession(db: Database, token: string, now: Date): Promise<ParentSessionLookup> {
  const found = await findParentSession(db, token);
  return found ? checkParentSession(db, found, now) : { status: 'unknown' };
}

/**
 * touchParentSession's answer, from the instance's memory (platform/caller-memory.ts) when the session
 * is kept there and nothing was heard since: a channel call then sends PostgreSQL nothing for its
 * caller, as a console call does. The session's sliding write still goes out every 5 minutes.
 */
export async function touchParentSessionKept(memory: CallerMemory | null, db: Database, token: string, now: Date): Promise<ParentSessionLookup> {
  const shelf = memory?.shelf<FoundParentSession>(PARENT_SHELF);
  const at = shelf?.begin();
  if (!shelf || at === undefined) return touchParentSession(db, token, now);
  const kept = shelf.take(token, at, now);
  if (kept) {
    const answer = await checkParentSession(db, kept, now);
    // Expired here may only mean another instance slid it since: ask the database.
    if (answer.status === 'valid') return answer;
  }
  const found = await findParentSession(db, token);
  if (!found) {
    shelf.drop(token);
    return { status: 'unknown' };
  }
  const answer = await checkParentSession(db, found, now);
  if (answer.status === 'valid') shelf.keep(token, found, at, now);
  else shelf.drop(token);
  return answer;
}

/** Drops a token's kept session on this instance at once (its sign-out), before the database's notice arrives. */
export function forgetParentToken(memory: CallerMemory | null, token: string): void {
  memory?.shelf<FoundParentSession>(PARENT_SHELF).drop(token);
}

/** Ends one session (sign-out). */
export function endParentSession(db: Executor, sessionId: number): Promise<void> {
  return parentSessionStore.end(db, sessionId);
}

/** Ends every session of a parent (disabled). */
export function endParentSessions(db: Executor, parentId: number): Promise<void> {
  return parentSessionStore.endAllOf(db, parentId);
}
