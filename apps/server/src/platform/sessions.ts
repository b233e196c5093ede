import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne, sql } from 'drizzle-orm';
import { builtOnce } from '@campus/contract';
import type { Database } from '../db/client.js';
import { sessions, users } from '../db/schema/index.js';

/** Sliding expiry is written at most this often, so every request does not cost a write. */
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

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

/** Starts a session: an opaque random token (32 bytes, base64url) valid within `limits`. */
export async function createSession(
  db: Database,
  input: { userId: number; limits: SessionLimits; now: Date; ip?: string; userAgent?: string },
): Promise<NewSession> {
  const { token, tokenHash } = mintSessionToken();
  const expiresAt = expiryOf(input.now, input.now, input.limits);
  await db.delete(sessions).where(lt(sessions.expiresAt, new Date(input.now.getTime() - EXPIRED_SESSION_RETENTION_MS)));
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash,
      userId: input.userId,
      createdAt: input.now,
      expiresAt,
      lastSeenAt: input.now,
      ip: input.ip ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    })
    .returning({ id: sessions.id });
  return { token, sessionId: row!.id, expiresAt };
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
  const [found] = await sessionStatementOf(db).execute({ tokenHash: hashToken(token) });
  if (!found) return { status: 'unknown' };
  const { session, user, stateVersion } = found;
  // The absolute limit is checked here too, so lowering SESSION_MAX_AGE ends older sessions at once.
  if (session.expiresAt.getTime() <= now.getTime() || session.createdAt.getTime() + limits.maxAgeMs <= now.getTime()) return { status: 'expired' };
  if (isActivity && now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_WRITE_INTERVAL_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: expiryOf(session.createdAt, now, limits) })
      .where(eq(sessions.id, session.id));
  }
  return { status: 'valid', sessionId: session.id, userId: session.userId, user, stateVersion };
}

/** Ends one session (log-out). */
export async function endSession(db: Database, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, but `exceptSessionId` (the caller's own, after a password change). */
export async function endSessionsOfUser(db: Database, userId: number, exceptSessionId?: number): Promise<void> {
  await db
    .delete(sessions)
    .where(exceptSessionId === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)));
}
