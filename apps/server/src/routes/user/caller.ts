/** What the caller's own-account routes share: its row, and the checks of its password and SMS code. */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { users, type SmsPurpose } from '../../db/schema/index.js';
import type { AuthUser } from '../../platform/auth.js';
import { badRequest, msg } from '../../platform/errors.js';
import { verifyPassword } from '../../platform/passwords.js';
import { isRefundOperator } from '../../platform/refund-password.js';
import { getRequestState } from '../../platform/caller-state.js';
import { consumeSmsCode } from '../../platform/sms.js';


export type UserRow = typeof users.$inferSelect;

/** The caller's account row. */
export async function loadUser(db: Database, user: AuthUser): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, user.id));
  // The auth hook has just read this row; it can only vanish in a concurrent delete.
  if (!row) throw badRequest([{ path: 'id', ...msg('validation.accountGone') }]);
  return row;
}

/** Checks the caller's current password (MD5 hex) or answers a field error on `path`. */
export async function assertPassword(row: UserRow, clientMd5: string, path: string): Promise<void> {
  if (!(await verifyPassword(clientMd5, row.passwordHash))) throw badRequest([{ path, ...msg('validation.wrongPassword') }]);
}

/** Uses up the SMS code sent to the caller's phone for `purpose`, or answers a field error. */
export async function assertSmsCode(db: Database, row: UserRow, purpose: SmsPurpose, code: string, now: Date): Promise<void> {
  const isValid = row.phoneNum !== null && (await consumeSmsCode(db, { phone: row.phoneNum, purpose, code, now }));
  if (!isValid) throw badRequest([{ path: 'smsCode', ...msg('validation.wrongSmsCode') }]);
}

/** Whether the caller refunds (company user holding refundManage's `refund`), so keeps a refund password. */
export async function callerRefunds(request: FastifyRequest): Promise<boolean> {
  return isRefundOperator(request.user.type, (await getRequestState(request)).grant);
}

/** An optional text field sent empty clears the column. */
export const emptyToNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);
