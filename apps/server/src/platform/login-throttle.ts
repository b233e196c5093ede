import { and, count, desc, eq, gt, inArray, max } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { loginAttempts, type LoginOutcome } from '../db/schema/index.js';
import { loginFailed, msg } from './errors.js';

/** 5 wrong passwords for one account within 10 minutes lock it for 10 minutes (issue 2). */
export const ACCOUNT_LOCKOUT = { failures: 5, windowMs: 10 * 60_000, lockMs: 10 * 60_000 } as const;

/**
 * Per address: the first `freeFailures` credential failures within the window cost nothing; each one
 * after that doubles the wait before the address may try again (1 s, 2 s, 4 s, … up to `maxDelayMs`),
 * counted from its latest failure. An office behind one address is therefore never refused for longer
 * than `maxDelayMs` by someone else's typing, while one address still cannot guess quickly (issue 8).
 */
export const ADDRESS_BACKOFF = { freeFailures: 10, windowMs: 10 * 60_000, baseDelayMs: 1_000, maxDelayMs: 60_000 } as const;

/**
 * Outcomes that are a wrong credential: they lock an account and slow an address. An unknown name
 * counts like a wrong password, so counting cannot tell which accounts exist; refusals that checked
 * no credential (captcha, lock, back-off) never count, or a lock would feed itself.
 */
export const CREDENTIAL_FAILURES = ['bad_password', 'unknown_user', 'bad_second_factor'] as const satisfies readonly LoginOutcome[];

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
 * Until when the account name is locked, if it is: the last five credential checks since the last
 * success all failed, within ten minutes of one another, and the newest less than ten minutes ago.
 * Names that do not exist are counted the same way, so a lock does not reveal an account.
 */
export async function accountLockedUntil(db: Database, loginName: string, now: Date): Promise<Date | undefined> {
  const recent = await db
    .select({ outcome: loginAttempts.outcome, createdAt: loginAttempts.createdAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.loginName, loginName.slice(0, 64)), inArray(loginAttempts.outcome, [...CREDENTIAL_FAILURES, 'success'])))
    .orderBy(desc(loginAttempts.createdAt), desc(loginAttempts.id))
    .limit(ACCOUNT_LOCKOUT.failures);
  if (recent.length < ACCOUNT_LOCKOUT.failures || recent.some((attempt) => attempt.outcome === 'success')) return undefined;
  const newest = recent[0]!.createdAt.getTime();
  const oldest = recent[recent.length - 1]!.createdAt.getTime();
  const lockedUntil = newest + ACCOUNT_LOCKOUT.lockMs;
  return newest - oldest <= ACCOUNT_LOCKOUT.windowMs && now.getTime() < lockedUntil ? new Date(lockedUntil) : undefined;
}

/** The wait an address owes after `failures` credential failures in the window (0 while under the free count). */
export function addressDelayMs(failures: number): number {
  const over = failures - ADDRESS_BACKOFF.freeFailures;
  if (over <= 0) return 0;
  return Math.min(ADDRESS_BACKOFF.baseDelayMs * 2 ** Math.min(over - 1, 30), ADDRESS_BACKOFF.maxDelayMs);
}

/** Until when the address must wait before its next login attempt, if it must (read from the database, so every instance agrees). */
export async function addressWaitUntil(db: Database, ip: string, now: Date): Promise<Date | undefined> {
  const [row] = await db
    .select({ failures: count(), latest: max(loginAttempts.createdAt) })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.ip, ip),
        gt(loginAttempts.createdAt, new Date(now.getTime() - ADDRESS_BACKOFF.windowMs)),
        inArray(loginAttempts.outcome, [...CREDENTIAL_FAILURES]),
      ),
    );
  const delay = addressDelayMs(row?.failures ?? 0);
  if (delay === 0 || !row?.latest) return undefined;
  const until = new Date(row.latest).getTime() + delay;
  return now.getTime() < until ? new Date(until) : undefined;
}

/** Who is trying to sign in, as the refusals below record it. */
export interface SignInAttempt {
  loginName: string;
  userId?: number;
  ip: string;
  userAgent?: string;
  now: Date;
}

/** Refuses (code 600, recorded) an attempt while its address owes a wait for its recent failures. */
export async function assertAddressMayTry(db: Database, attempt: SignInAttempt): Promise<void> {
  const waitUntil = await addressWaitUntil(db, attempt.ip, attempt.now);
  if (!waitUntil) return;
  await recordLoginAttempt(db, { ...attempt, outcome: 'too_many_attempts', at: attempt.now });
  throw loginFailed(msg('login.tooManyFromAddress', { seconds: Math.ceil((waitUntil.getTime() - attempt.now.getTime()) / 1000) }));
}

/** Refuses (code 600, recorded) a locked name, existing or not, with the same message. */
export async function assertNotLocked(db: Database, attempt: SignInAttempt): Promise<void> {
  const lockedUntil = await accountLockedUntil(db, attempt.loginName, attempt.now);
  if (!lockedUntil) return;
  await recordLoginAttempt(db, { ...attempt, outcome: 'locked', at: attempt.now });
  throw loginFailed(msg('login.locked', { minutes: Math.ceil((lockedUntil.getTime() - attempt.now.getTime()) / 60_000) }));
}
