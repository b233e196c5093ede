import {
  API_PATHS,
  beginTotpRequestSchema,
  confirmTotpRequestSchema,
  disableTotpRequestSchema,
  recoveryCodesSchema,
  totpEnrolmentSchema,
  TWO_FACTOR_ACCOUNT_TYPES,
  endSessionRequestSchema,
  sessionPageSchema,
  sessionsQuerySchema,
  loginUserInfoSchema,
  smsCodeSentSchema,
  updateLoginUserInfoRequestSchema,
  updateLoginUserPasswordRequestSchema,
  updateRefundPasswordRequestSchema,
  userSendSmsCodeRequestSchema,
  visibilityProbesSchema,
  type LoginUserInfo,
  CompanyUser,
} from '@campus/contract';
import { and, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { sessions, users, type SmsPurpose } from '../db/schema/index.js';
import type { AuthUser } from '../platform/auth.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { badRequest, forbidden, notFound, msg } from '../platform/errors.js';
import { homeSchoolOf } from '../platform/home-school.js';
import { hashPassword, verifyPassword } from '../platform/passwords.js';
import { isRefundOperator } from '../platform/refund-password.js';
import { getRequestState } from '../platform/caller-state.js';
import { endSession, endSessionsOfUser } from '../platform/sessions.js';
import { describeUserAgent } from '../platform/user-agents.js';
import { consumeSmsCode, issueSmsCode, maskPhone } from '../platform/sms.js';
import { accountLockedUntil, recordLoginAttempt } from '../platform/login-throttle.js';
import { beginTotpEnrolment, checkSecondFactor, confirmTotpEnrolment, disableTotp, twoFactorStatus } from '../platform/two-factor.js';
import { updateRecords } from '../resources/engine/services.js';

type UserRow = typeof users.$inferSelect;

async function loadUser(db: Database, user: AuthUser): Promise<UserRow> {
  const [row] = await db.select().from(users).where(eq(users.id, user.id));
  // The auth hook has just read this row; it can only vanish in a concurrent delete.
  if (!row) throw badRequest([{ path: 'id', ...msg('validation.accountGone') }]);
  return row;
}

async function loginUserInfoOf(db: Database, row: UserRow, isRefundOperator: boolean): Promise<LoginUserInfo> {
  return {
    id: row.id,
    loginName: row.loginName,
    name: row.name,
    type: row.type,
    phoneNum: row.phoneNum,
    company: row.company,
    sellerPosition: row.sellerPosition,
    servicePhone1: row.servicePhone1,
    servicePhone2: row.servicePhone2,
    servicePhone3: row.servicePhone3,
    email: row.email,
    hasRefundPassword: row.refundPasswordHash !== null,
    canSetRefundPassword: isRefundOperator,
    twoFactor: { available: TWO_FACTOR_ACCOUNT_TYPES.includes(row.type), ...(await twoFactorStatus(db, row.id)) },
    schoolName: (await homeSchoolOf(db, row)).schoolName,
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  };
}

/** Checks the caller's current password (MD5 hex) or answers a field error on `path`. */
async function assertPassword(row: UserRow, clientMd5: string, path: string): Promise<void> {
  if (!(await verifyPassword(clientMd5, row.passwordHash))) throw badRequest([{ path, ...msg('validation.wrongPassword') }]);
}

/** Uses up the SMS code sent to the caller's phone for `purpose`, or answers a field error. */
async function assertSmsCode(db: Database, row: UserRow, purpose: SmsPurpose, code: string, now: Date): Promise<void> {
  const isValid = row.phoneNum !== null && (await consumeSmsCode(db, { phone: row.phoneNum, purpose, code, now }));
  if (!isValid) throw badRequest([{ path: 'smsCode', ...msg('validation.wrongSmsCode') }]);
}

/** Whether the caller refunds (company user holding refundManage's `refund`), so keeps a refund password. */
async function callerRefunds(request: FastifyRequest): Promise<boolean> {
  return isRefundOperator(request.user.type, (await getRequestState(request)).grant);
}

const emptyToNull = (value: string | undefined) => (value === undefined || value === '' ? null : value);

/** The caller's own account: profile, probes, password and refund password (personalInformation). */
export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.loginUserInfo,
    { schema: { tags: ['User'], summary: "The caller's profile", response: { 200: envelopeSchema(loginUserInfoSchema) } } },
    async (request) => ok(await loginUserInfoOf(app.db, await loadUser(app.db, request.user), await callerRefunds(request))),
  );

  app.post(
    API_PATHS.updateLoginUserInfo,
    {
      schema: {
        tags: ['User'],
        summary: "Update the caller's profile (name, company, email, service phones)",
        body: updateLoginUserInfoRequestSchema,
        response: { 200: envelopeSchema(loginUserInfoSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      await updateRecords(app.db, CompanyUser, [request.user.id], {
        values: {
          name: body.name,
          ...(body.company !== undefined ? { company: emptyToNull(body.company) } : {}),
          ...(body.email !== undefined ? { email: emptyToNull(body.email) } : {}),
          ...(body.servicePhone1 !== undefined ? { servicePhone1: emptyToNull(body.servicePhone1) } : {}),
          ...(body.servicePhone2 !== undefined ? { servicePhone2: emptyToNull(body.servicePhone2) } : {}),
          ...(body.servicePhone3 !== undefined ? { servicePhone3: emptyToNull(body.servicePhone3) } : {}),
        },
        now: app.clock.now(),
      });
      return ok(await loginUserInfoOf(app.db, await loadUser(app.db, request.user), await callerRefunds(request)));
    },
  );

  app.get(
    API_PATHS.visibilityProbes,
    {
      schema: {
        tags: ['User'],
        summary: "The caller's visibility probes (from its user type and settings)",
        response: { 200: envelopeSchema(visibilityProbesSchema) },
      },
    },
    async (request) => ok((await getRequestState(request)).probes),
  );

  app.post(
    API_PATHS.userSendSmsCode,
    {
      schema: {
        tags: ['User'],
        summary: "Send a verification code to the caller's own phone (password or refund password change)",
        body: userSendSmsCodeRequestSchema,
        response: { 200: envelopeSchema(smsCodeSentSchema) },
      },
    },
    async (request) => {
      const row = await loadUser(app.db, request.user);
      if (!row.phoneNum) throw badRequest([{ path: 'phoneNum', ...msg('validation.noMobile') }]);
      await issueSmsCode({ db: app.db, sms: app.sms, now: app.clock.now() }, { phone: row.phoneNum, purpose: request.body.purpose, deliver: true, ip: request.ip });
      return ok({ phoneMasked: maskPhone(row.phoneNum) });
    },
  );

  app.post(
    API_PATHS.updateLoginUserPassword,
    {
      schema: {
        tags: ['User'],
        summary: "Change the caller's password (old password + SMS code); ends its other sessions",
        body: updateLoginUserPasswordRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { oldPassword, newPassword, smsCode } = request.body;
      const now = app.clock.now();
      const row = await loadUser(app.db, request.user);
      await assertPassword(row, oldPassword, 'oldPassword');
      if (oldPassword.toLowerCase() === newPassword.toLowerCase()) {
        throw badRequest([{ path: 'newPassword', ...msg('validation.mustDiffer') }]);
      }
      await assertSmsCode(app.db, row, 'password', smsCode, now);
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction(async (tx) => {
        await updateRecords(tx, CompanyUser, [row.id], { values: { passwordHash, mustChangePassword: false }, now });
        await endSessionsOfUser(tx, row.id, request.user.sessionId);
      });
      return ok(null);
    },
  );

  app.post(
    API_PATHS.updateRefundPassword,
    {
      schema: {
        tags: ['User'],
        summary: "Set the caller's refund password (login password + SMS code)",
        body: updateRefundPasswordRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { loginPassword, refundPassword, smsCode } = request.body;
      if (!(await callerRefunds(request))) throw forbidden(msg('refundPassword.notOperator'));
      const now = app.clock.now();
      const row = await loadUser(app.db, request.user);
      await assertPassword(row, loginPassword, 'loginPassword');
      await assertSmsCode(app.db, row, 'refundPassword', smsCode, now);
      // A new password also lifts a lock from wrong answers to the old one.
      await updateRecords(app.db, CompanyUser, [row.id], {
        values: { refundPasswordHash: await hashPassword(refundPassword), refundPasswordFailures: 0, refundPasswordLockedUntil: null },
        now,
      });
      return ok(null);
    },
  );

  app.post(
    API_PATHS.beginTotp,
    {
      schema: {
        tags: ['User'],
        summary: 'Start turning on two-factor sign-in: answers the secret and its otpauth:// address once (login password required)',
        description: 'Company administrator accounts only (403 otherwise). Replaces an unconfirmed set-up; the authenticator guards logins once ConfirmTotp accepts a code.',
        body: beginTotpRequestSchema,
        response: { 200: envelopeSchema(totpEnrolmentSchema) },
      },
    },
    async (request) => {
      const row = await loadUser(app.db, request.user);
      if (!TWO_FACTOR_ACCOUNT_TYPES.includes(row.type)) throw forbidden(msg('twoFactor.notAvailable'));
      await assertPassword(row, request.body.password, 'password');
      if ((await twoFactorStatus(app.db, row.id)).enabled) throw badRequest([{ path: 'password', ...msg('twoFactor.alreadyEnabled') }]);
      return ok(await beginTotpEnrolment(app.db, row, app.clock.now()));
    },
  );

  app.post(
    API_PATHS.confirmTotp,
    {
      schema: {
        tags: ['User'],
        summary: 'Turn on two-factor sign-in with a code from the authenticator; answers the 10 recovery codes once',
        body: confirmTotpRequestSchema,
        response: { 200: envelopeSchema(recoveryCodesSchema) },
      },
    },
    async (request) => {
      const row = await loadUser(app.db, request.user);
      if (!TWO_FACTOR_ACCOUNT_TYPES.includes(row.type)) throw forbidden(msg('twoFactor.notAvailable'));
      const recoveryCodes = await confirmTotpEnrolment(app.db, row.id, request.body.code, app.clock.now());
      if (!recoveryCodes) throw badRequest([{ path: 'code', ...msg('twoFactor.wrongCode') }]);
      return ok({ recoveryCodes });
    },
  );

  app.post(
    API_PATHS.disableTotp,
    {
      schema: {
        tags: ['User'],
        summary: 'Turn off two-factor sign-in (login password and an authenticator or recovery code)',
        description: 'A wrong code counts toward the account lockout like one at login, so a session cannot be used to guess codes.',
        body: disableTotpRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const row = await loadUser(app.db, request.user);
      if (!(await twoFactorStatus(app.db, row.id)).enabled) throw badRequest([{ path: 'code', ...msg('twoFactor.notEnabled') }]);
      await assertPassword(row, request.body.password, 'password');
      const lockedUntil = await accountLockedUntil(app.db, row.loginName, now);
      if (lockedUntil) {
        throw badRequest([{ path: 'code', ...msg('login.locked', { minutes: Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000) }) }]);
      }
      if (!(await checkSecondFactor(app.db, row.id, request.body.code, now))) {
        const attempt = { loginName: row.loginName, userId: row.id, ip: request.ip, outcome: 'bad_second_factor', at: now } as const;
        await recordLoginAttempt(app.db, { ...attempt, userAgent: request.headers['user-agent'] });
        throw badRequest([{ path: 'code', ...msg('twoFactor.wrongCode') }]);
      }
      await disableTotp(app.db, row.id);
      return ok(null);
    },
  );

  app.get(
    API_PATHS.sessions,
    {
      schema: {
        tags: ['User'],
        summary: "A page of the caller's active sessions: this one first, then by last activity; browser and system in words",
        querystring: sessionsQuerySchema,
        response: { 200: envelopeSchema(sessionPageSchema) },
      },
    },
    async (request) => {
      const { pageIndex, pageSize } = request.query;
      const active = and(eq(sessions.userId, request.user.id), gt(sessions.expiresAt, app.clock.now()));
      const [rows, [counted]] = await Promise.all([
        app.db
          .select()
          .from(sessions)
          .where(active)
          .orderBy(desc(sql`${sessions.id} = ${request.user.sessionId}`), desc(sessions.lastSeenAt), desc(sessions.id))
          .limit(pageSize)
          .offset((pageIndex - 1) * pageSize),
        app.db.select({ total: sql<number>`count(*)::int` }).from(sessions).where(active),
      ]);
      return ok({
        total: Number(counted?.total ?? 0),
        items: rows.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          expiresAt: row.expiresAt.toISOString(),
          ip: row.ip,
          userAgent: row.userAgent,
          ...describeUserAgent(row.userAgent),
          isCurrent: row.id === request.user.sessionId,
        })),
      });
    },
  );

  app.post(
    API_PATHS.endSession,
    {
      schema: {
        tags: ['User'],
        summary: "End one of the caller's sessions (another browser or device)",
        body: endSessionRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const [session] = await app.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, request.body.id), eq(sessions.userId, request.user.id)));
      if (!session) throw notFound(msg('error.sessionNotFound'));
      await endSession(app.db, session.id);
      return ok(null);
    },
  );

  app.post(
    API_PATHS.endOtherSessions,
    {
      schema: {
        tags: ['User'],
        summary: "End every session of the caller but the one making this call",
        response: { 200: envelopeSchema(z.object({ ended: z.number() })) },
      },
    },
    async (request) => {
      const ended = await app.db
        .delete(sessions)
        .where(and(eq(sessions.userId, request.user.id), ne(sessions.id, request.user.sessionId)))
        .returning({ id: sessions.id });
      return ok({ ended: ended.length });
    },
  );
};
