import { createHash, randomBytes } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { builtOnce } from '@campus/contract';
import type { Database, Executor } from '../db/client.js';
import { sessions, users } from '../db/schema/index.js';

/** Expired sessions are kept this long so their token still answers '10011' (expired), not '10010'. */
export const EXPIRED_SESSION_RETENTION_MS = 7 * 86_400_000;

/** The SHA-256 (hex) under which a token is stored; the token itself never is. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new opaque session token (32 random bytes, base64url) with the hash it is stored under. */
export function mintSessionToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

export interface NewSession {
  token: string;
  sessionId: number;
  expiresAt: Date;
}

/** How long a session lives: `idleMs` without a call, and never more than `maxAgeMs` after its login. */
export interface SessionLimits {
  idleMs: number;
  maxAgeMs: number;
}

/** The expiry of a session started at `createdAt` and used at `now`: idle limit, capped by the absolute one (ASVS 3.3.2). */
function expiryOf(createdAt: Date, now: Date, limits: SessionLimits): Date {
  return new Date(Math.min(now.getTime() + limits.idleMs, createdAt.getTime() + limits.maxAgeMs));
}

/**
 * A kind of session: its table and the column naming whose session it is. The console's (`sessions`,
 * owned by users) and the parent app's (`parent_sessions`, owned by parents) have the same columns but
 * the owner, and tables apart, so a token of one kind is never found as the other.
 */
export interface SessionKind {
  table: PgTable;
  ownerColumn: string;
  /** Sliding expiry is written at most this often, so every request does not cost a write. */
  writeEveryMs: number;
}

/** The times of a found session that decide whether it is still valid. */
export interface SessionTimes {
  id: number;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** The rows a raw statement answers, whichever driver ran it. */
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const iso = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;

/**
 * The one store of every kind of session: token minting, expiry (idle, capped by the absolute
 * lifetime), sliding and the retention of expired sessions live here; each kind keeps only its lookup
 * (what a call needs with the session: the console's account, the parent's children).
 */
export function sessionStore(kind: SessionKind) {
  const { table } = kind;
  const owner = sql.identifier(kind.ownerColumn);
  return {
    /** Starts a session of `ownerId`: an opaque random token valid within `limits`, answered once. */
    async start(db: Executor, input: { ownerId: number; limits: SessionLimits; now: Date; ip?: string; userAgent?: string }): Promise<NewSession> {
      const { token, tokenHash } = mintSessionToken();
      const expiresAt = expiryOf(input.now, input.now, input.limits);
      await db.execute(sql`delete from ${table} where expires_at < ${iso(new Date(input.now.getTime() - EXPIRED_SESSION_RETENTION_MS))}`);
      const inserted = await db.execute(sql`
        insert into ${table} (token_hash, ${owner}, created_at, expires_at, last_seen_at, ip, user_agent)
        values (${tokenHash}, ${input.ownerId}, ${iso(input.now)}, ${iso(expiresAt)}, ${iso(input.now)}, ${input.ip ?? null}, ${input.userAgent?.slice(0, 500) ?? null})
        returning id`);
      return { token, sessionId: Number(rowsOf(inserted)[0]!.id), expiresAt };
    },
    /**
     * Whether a found session is still valid at `now`; a valid one's expiry slides to now + the idle
     * limit, never past its start + the absolute limit, so an active session must sign in again too.
     * A background call (`isActivity: false`, a poll the user did not ask for) slides nothing, so a tab
     * left open still reaches the idle limit. The absolute limit is checked here too, so lowering it
     * ends older sessions at once.
     */
    async slide(db: Executor, session: SessionTimes, limits: SessionLimits, now: Date, isActivity = true): Promise<boolean> {
      if (session.expiresAt.getTime() <= now.getTime() || session.createdAt.getTime() + limits.maxAgeMs <= now.getTime()) return false;
      if (isActivity && now.getTime() - session.lastSeenAt.getTime() >= kind.writeEveryMs) {
        const expiresAt = expiryOf(session.createdAt, now, limits);
        await db.execute(sql`update ${table} set last_seen_at = ${iso(now)}, expires_at = ${iso(expiresAt)} where id = ${session.id}`);
        // A session kept in memory (caller-memory.ts) slides from what was written, not what was read.
        session.lastSeenAt = now;
        session.expiresAt = expiresAt;
      }
      return true;
    },
    /** Ends one session (sign-out). */
    async end(db: Executor, sessionId: number): Promise<void> {
      await db.execute(sql`delete from ${table} where id = ${sessionId}`);
    },
    /** Ends every session of an owner, but `exceptSessionId` (the caller's own, after a password change). */
    async endAllOf(db: Executor, ownerId: number, exceptSessionId?: number): Promise<void> {
      await db.execute(sql`delete from ${table} where ${owner} = ${ownerId}${exceptSessionId === undefined ? sql`` : sql` and id <> ${exceptSessionId}`}`);
    },
  };
}

/** The console's sessions (users signed in to the console). */
const consoleSessions = sessionStore({ table: sessions, ownerColumn: 'user_id', writeEveryMs: 60_000 });

/** Starts a session: an opaque random token (32 bytes, base64url) valid within `limits`. */
export function createSession(db: Executor, input: { userId: number; limits: SessionLimits; now: Date; ip?: string; userAgent?: string }): Promise<NewSession> {
  const { userId, ...rest } = input;
  return consoleSessions.start(db, { ownerId: userId, ...rest });
}

/** The account fields a call needs from its session; the rest of the row (password hash included) stays in the database. */
export type SessionUser = Pick<typeof users.$inferSelect, 'id' | 'loginName' | 'name' | 'type' | 'parentId' | 'salesTeamId' | 'sellerPosition' | 'enabled'>;

export type SessionLookup =
  | { status: 'valid'; sessionId: number; userId: number; user: SessionUser; stateVersion: number }
  | { status: 'expired' }
  | { status: 'unknown' };

/**
 * The session of a token hash with its account and the caller-state version (migration
 * 0032_caller-state-version), built and named once per database: every authenticated call starts
 * here, so PostgreSQL parses and plans it once per connection and drizzle never builds it again.
 * Only the columns a call uses: every column costs the driver a parser and a conversion per call.
 */
const sessionStatementOf = builtOnce((db: Database) => {
  return db
    .select({
      session: { id: sessions.id, userId: sessions.userId, createdAt: sessions.createdAt, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt },
      user: {
        id: users.id,
        loginName: users.loginName,
        name: users.name,
        type: users.type,
        parentId: users.parentId,
        salesTeamId: users.salesTeamId,
        sellerPosition: users.sellerPosition,
        enabled: users.enabled,
      },
      stateVersion: sql<string>`(select version from caller_state_version where id = 1)`.mapWith(Number),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .prepare('campus_touch_session');
});

/**
 * Finds the session of a token with its account, and slides its expiry to now + the idle limit,
 * never past its login + the absolute limit: an active session must sign in again too.
 * A background call (`isActivity: false`, a poll the user did not ask for) is checked the same way
 * but slides nothing, so a tab left open still reaches the idle limit (ASVS 3.3.2).
 */
export async function touchSession(
  db: Database,
  token: string,
  limits: SessionLimits,
  now: Date,
  { isActivity = true }: { isActivity?: boolean } = {},
): Promise<SessionLookup> {
  const found = await findSession(db, hashToken(token));
  if (!found) return { status: 'unknown' };
  return checkSession(db, found, limits, now, isActivity);
}

/** A session row as the session statement reads it: its times, its account and the caller-state version. */
export interface FoundSession {
  session: SessionTimes & { userId: number };
  user: SessionUser;
  stateVersion: number;
}

/** The session stored under a token hash, with its account; undefined when there is none. */
export async function findSession(db: Database, tokenHash: string): Promise<FoundSession | undefined> {
  const [found] = await sessionStatementOf(db).execute({ tokenHash });
  return found;
}

/** Whether a found session is valid at `now` (sliding it as touchSession does), as touchSession answers it. */
export async function checkSession(db: Executor, found: FoundSession, limits: SessionLimits, now: Date, isActivity: boolean): Promise<SessionLookup> {
  const { session, user, stateVersion } = found;
  if (!(await consoleSessions.slide(db, session, limits, now, isActivity))) return { status: 'expired' };
  return { status: 'valid', sessionId: session.id, userId: session.userId, user, stateVersion };
}

/** Ends one session (log-out). */
export function endSession(db: Executor, sessionId: number): Promise<void> {
  return consoleSessions.end(db, sessionId);
}

/** Ends every session of a user, but `exceptSessionId` (the caller's own, after a password change). */
export function endSessionsOfUser(db: Executor, userId: number, exceptSessionId?: number): Promise<void> {
  return consoleSessions.endAllOf(db, userId, exceptSessionId);
}
