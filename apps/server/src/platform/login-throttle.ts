import { and, count, desc, eq, gt, inArray, notInArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { loginAttempts, type LoginOutcome } from '../db/schema/index.js';

/** 5 wrong passwords for one account within 10 minutes lock it for 10 minutes (issue 2). */
export const ACCOUNT_LOCKOUT = { failures: 5, windowMs: 10 * 60_000, lockMs: 10 * 60_000 } as const;

/** Failed attempts of any kind from one address within 10 minutes before it is refused. */
export const ADDRESS_LIMIT = { failures: 30, windowMs: 10 * 60_000 } as const;

export interface LoginAttempt {
  loginName: string;
  userId?: number;
  ip: string;
  userAgent?: string;
  outcome: LoginOutcome;
  at: Date;
}

/** Writes one attempt to the login log (login_attempts). */
export async function recordLoginAttempt(db: Database, attempt: LoginAttempt): Promise<void> {
  await db.insert(loginAttempts).values({
    loginName: attempt.loginName.slice(0, 64),
    userId: attempt.userId ?? null,
    ip: attempt.ip,
    userAgent: attempt.userAgent?.slice(0, 500) ?? null,
    outcome: attempt.outcome,
    createdAt: attempt.at,
  });
}

/**
 * Until when the account is locked, if it is: the last five password checks since the last success
 * all failed, within ten minutes of one another, and the newest less than ten minutes ago.
 */
export async function accountLockedUntil(db: Database, loginName: string, now: Date): Promise<Date | undefined> {
  const recent = await db
    .select({ outcome: loginAttempts.outcome, createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.loginName, loginName), inArray(loginAttempts.outcome, ['bad_password', 'success'])))
    .orderBy(desc(loginAttempts.createdAt), desc(loginAttempts.id))
    .limit(ACCOUNT_LOCKOUT.failures);
  if (recent.length < ACCOUNT_LOCKOUT.failures || recent.some((attempt) => attempt.outcome !== 'bad_password')) return undefined;
  const newest = recent[0]!.createdAt.getTime();
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  const lockedUntil = newest + ACCOUNT_LOCKOUT.lockMs;
  return newest - oldest <= ACCOUNT_LOCKOUT.windowMs && now.getTime() < lockedUntil ? new Date(lockedUntil) : undefined;
}

/** Whether the address made too many failed attempts lately. */
export async function isAddressLimited(db: Database, ip: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ failures: count() })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.ip, ip),
        gt(loginAttempts.createdAt, new Date(now.getTime() - ADDRESS_LIMIT.windowMs)),
        // Right passwords and refusals already counted are not new failures.
        notInArray(loginAttempts.outcome, ['success', 'must_change_password', 'too_many_attempts']),
      ),
    );
  return (row?.failures ?? 0) >= ADDRESS_LIMIT.failures;
}
