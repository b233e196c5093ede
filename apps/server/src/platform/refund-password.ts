/**
 * The refund password confirms each refund (SEED-SPEC: MD5 on the wire, a slow hash at rest). Five
 * wrong answers in a row lock the operator's refunds for ten minutes; the counter lives on the user
 * row, so every server instance sees the same count and the lock survives a restart.
 */
import { frameOf, type ButtonValue } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { users } from '../db/schema/users.js';
import type { EffectiveGrant } from './caller-state.js';
import { badRequest, msg } from './errors.js';
import { verifyPassword } from './passwords.js';

export const REFUND_PASSWORD_MAX_FAILURES = 5;
export const REFUND_PASSWORD_LOCK_MS = 10 * 60_000;

/** The frame and button whose holders refund, and so keep a refund password. */
const REFUND_FRAME = 'refundManage';
const REFUND_BUTTON: ButtonValue = 'refund';

/** Company users holding refundManage's `refund` button are the operators who need a refund password. */
export function isRefundOperator(userType: string, grant: EffectiveGrant): boolean {
  return userType === 'company' && (grant.get(frameOf(REFUND_FRAME).fixedId)?.has(REFUND_BUTTON) ?? false);
}

const minutesLeft = (until: Date, now: Date) => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

/**
 * Checks the caller's refund password (its MD5 hex); throws 400 on `reauthPassword` when it is unset,
 * locked or wrong. A right answer clears the count of wrong ones. The count is raised by one atomic
 * update, so concurrent wrong answers cannot each read 4 and slip past the lock.
 */
export async function checkRefundPassword(db: Database, userId: number, md5: unknown, now: Date): Promise<void> {
  const [user] = await db
    .select({ hash: users.refundPasswordHash, lockedUntil: users.refundPasswordLockedUntil })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.hash) throw badRequest([{ path: 'reauthPassword', ...msg('workflow.noRefundPassword') }]);
  if (user.lockedUntil && user.lockedUntil > now) {
    throw badRequest([{ path: 'reauthPassword', ...msg('refundPassword.locked', { minutes: minutesLeft(user.lockedUntil, now) }) }]);
  }
  if (typeof md5 === 'string' && (await verifyPassword(md5, user.hash))) {
    await db.update(users).set({ refundPasswordFailures: 0, refundPasswordLockedUntil: null }).where(eq(users.id, userId));
    return;
  }
  const lockUntil = new Date(now.getTime() + REFUND_PASSWORD_LOCK_MS);
  const [counted] = await db
    .update(users)
    .set({
      // The fifth wrong answer locks and starts the count again for after the lock.
      refundPasswordFailures: sql`case when ${users.refundPasswordFailures} + 1 >= ${REFUND_PASSWORD_MAX_FAILURES} then 0 else ${users.refundPasswordFailures} + 1 end`,
      refundPasswordLockedUntil: sql`case when ${users.refundPasswordFailures} + 1 >= ${REFUND_PASSWORD_MAX_FAILURES} then ${lockUntil.toISOString()}::timestamptz else ${users.refundPasswordLockedUntil} end`,
    })
    .where(eq(users.id, userId))
    .returning({ lockedUntil: users.refundPasswordLockedUntil });
  if (counted?.lockedUntil && counted.lockedUntil > now) {
    throw badRequest([{ path: 'reauthPassword', ...msg('refundPassword.locked', { minutes: minutesLeft(counted.lockedUntil, now) }) }]);
  }
  throw badRequest([{ path: 'reauthPassword', ...msg('workflow.wrongRefundPassword') }]);
}
