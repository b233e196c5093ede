/**
 * Where the company's two-factor policy (TwoFactorPolicySetting, on the company users page) lives,
 * and what turning it on implies: company administrators then sign in only with an authenticator
 * (Login_web answers 603 to one without it, and the login page sets one up before any session starts).
 */
import { and, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import { sessions, users, userTotp } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { isTwoFactorRequired, setTwoFactorRequired, twoFactorStatus } from '../platform/two-factor.js';
import type { SettingStore } from './engine/settings.js';

export const twoFactorPolicyStore: SettingStore = {
  read: async (db) => ({ required: await isTwoFactorRequired(db) }),
  async write(db, value, caller) {
    const required = value.required === true;
    // Otherwise the administrator who turns it on would be the first one sent to set it up.
    if (required && !(await twoFactorStatus(db, caller.id)).enabled) throw badRequest([{ path: 'required', ...msg('twoFactor.ownFirst') }]);
    await setTwoFactorRequired(db, required);
    if (!required) return;
    const enrolled = db.select({ userId: userTotp.userId }).from(userTotp).where(isNotNull(userTotp.confirmedAt));
    const unenrolled = db.select({ id: users.id }).from(users).where(and(eq(users.type, 'company'), notInArray(users.id, enrolled)));
    await db.delete(sessions).where(inArray(sessions.userId, unenrolled));
  },
};
