import {
  API_PATHS,
  captchaResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  loginSecondFactorRequestSchema,
  beginTwoFactorSetupRequestSchema,
  confirmTwoFactorSetupRequestSchema,
  sendSmsCodeRequestSchema,
  totpEnrolmentSchema,
  twoFactorSetupLoginSchema,
  TWO_FACTOR_ACCOUNT_TYPES,
  updateUserPasswordRequestSchema,
  CompanyUser,
} from '@campus/contract';
import { announceSessionsEnded } from '../platform/live-events.js';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users, type LoginOutcome } from '../db/schema/index.js';
import { consumeCaptcha, issueCaptcha } from '../platform/captcha.js';
import { envelopeSchema, failureEnvelopeSchema, ok } from '../platform/envelope.js';
import { badRequest, loginFailed, mustChangePassword, msg, secondFactorRequired, twoFactorSetupRequired } from '../platform/errors.js';
import { homeSchoolOf } from '../platform/home-school.js';
import { assertAddressMayTry as assertAddressMayTryFrom, assertNotLocked as assertNotLockedName, recordLoginAttempt } from '../platform/login-throttle.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../platform/passwords.js';
import { getEffectiveGrant } from '../platform/permissions.js';
import { createSession, endSession, endSessionsOfUser } from '../platform/sessions.js';
import { consumeSmsCode, issueSmsCode, maskPhone } from '../platform/sms.js';
import {
  beginTotpEnrolment,
  checkSecondFactor,
  confirmTotpEnrolment,
  consumeLoginChallenge,
  createLoginChallenge,
  findLoginChallenge,
  isTwoFactorRequired,
  requiresSecondFactor,
} from '../platform/two-factor.js';
import { updateRecords } from '../resources/engine/services.js';

const userAgentOf = (request: FastifyRequest) => request.headers['user-agent'];

/** Log-in, log-out, the captcha and the SMS password reset (SEED-SPEC section 7). */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    API_PATHS.captcha,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'Issue an image verification code (single use, 2 minutes)',
        response: {
          200: envelopeSchema(
            captchaResponseSchema.extend({
              image: z.string().describe('The SVG picture as a data URL (data:image/svg+xml;base64,...), usable as an <img> src'),
            }),
          ),
        },
      },
    },
    async () => ok(await issueCaptcha(app.db, app.clock.now(), app.env.CAPTCHA_FIXED_CODE)),
  );

  type UserRow = typeof users.$inferSelect;

  /** Starts the session of an account whose every factor was right, and answers the seed's login data. */
  async function completeLogin(request: FastifyRequest, user: UserRow, now: Date) {
    return ok(await startSession(request, user, now));
  }

  /** completeLogin without the envelope. */
  async function startSession(request: FastifyRequest, user: UserRow, now: Date) {
    const session = await app.db.transaction(async (tx) => {
      const created = await createSession(tx, {
        userId: user.id,
        limits: app.env.sessionLimits,
        now,
        ip: request.ip,
        userAgent: userAgentOf(request),
      });
      await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id));
      await recordLoginAttempt(tx, { loginName: user.loginName, userId: user.id, ip: request.ip, userAgent: userAgentOf(request), outcome: 'success', at: now });
      return created;
    });
    const grant = await getEffectiveGrant(app.db, user);
    const school = await homeSchoolOf(app.db, user);
    return {
      Token: session.token,
      SchoolName: school.schoolName,
      UserName: user.name,
      UserId: user.id,
      SchoolId: school.schoolId,
      ClassId: 0,
      TokenTime: session.expiresAt.toISOString(),
      Frames: [...grant.keys()].sort((a, b) => a - b).map((ID) => ({ ID })),
    };
  }

  /** Refuses the attempt while the address owes a wait for its recent failures (login-throttle.ts). */
  const assertAddressMayTry = (request: FastifyRequest, loginName: string, now: Date) =>
    assertAddressMayTryFrom(app.db, { loginName, ip: request.ip, userAgent: userAgentOf(request), now });

  /** Refuses a locked name, existing or not, with the same message. */
  const assertNotLocked = (request: FastifyRequest, loginName: string, userId: number | undefined, now: Date) =>
    assertNotLockedName(app.db, { loginName, userId, ip: request.ip, userAgent: userAgentOf(request), now });

  app.post(
    API_PATHS.login,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'Log in with the MD5 hex of the password and the captcha',
        description:
          'Refusals are answered with HTTP 200: code 600 (wrong captcha; unknown user and wrong password alike = "password error"; disabled, locked, address must wait), 601 (verify the phone and change the password first), 602 (right password; answer the second factor at LoginSecondFactor with data.challenge) or 603 (right password; two-factor sign-in is mandatory: set it up at BeginTwoFactorSetup and ConfirmTwoFactorSetup with data.challenge).',
        body: loginRequestSchema,
        response: { 200: z.union([envelopeSchema(loginResponseSchema), failureEnvelopeSchema]) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const { userName, password, vcId, vcCode } = request.body;
      const record = (outcome: LoginOutcome, userId?: number) =>
        recordLoginAttempt(app.db, { loginName: userName, userId, ip: request.ip, userAgent: userAgentOf(request), outcome, at: now });

      await assertAddressMayTry(request, userName, now);
      if (!(await consumeCaptcha(app.db, vcId, vcCode, now))) {
        await record('bad_captcha');
        throw loginFailed(msg('login.wrongCaptcha'));
      }
      const [user] = await app.db.select().from(users).where(eq(users.loginName, userName));
      // Names are locked and counted whether or not they exist, so neither tells an account apart.
      await assertNotLocked(request, userName, user?.id, now);
      if (!user) {
        // A hash of the same cost as a real check, so the answer takes as long as a wrong password.
        await verifyPassword(password, await dummyPasswordHash());
        await record('unknown_user');
        throw loginFailed(msg('login.wrongPassword'));
      }
      if (!(await verifyPassword(password, user.passwordHash))) {
        await record('bad_password', user.id);
        throw loginFailed(msg('login.wrongPassword'));
      }
      if (!user.enabled) {
        await record('disabled', user.id);
        throw loginFailed(msg('login.disabled'));
      }
      if (user.mustChangePassword) {
        await record('must_change_password', user.id);
        throw mustChangePassword({ userName: user.loginName, phoneMasked: maskPhone(user.phoneNum ?? '') });
      }
      if (await requiresSecondFactor(app.db, user.id)) {
        const { challenge, expiresAt } = await createLoginChallenge(app.db, { userId: user.id, ip: request.ip, now });
        await record('second_factor_required', user.id);
        throw secondFactorRequired({ challenge, expiresAt: expiresAt.toISOString() });
      }
      // Mandatory two-factor (ASVS 4.3.1): no session until the account has set up an authenticator.
      if (TWO_FACTOR_ACCOUNT_TYPES.includes(user.type) && (await isTwoFactorRequired(app.db))) {
        const { challenge, expiresAt } = await createLoginChallenge(app.db, { userId: user.id, ip: request.ip, now });
        await record('second_factor_setup_required', user.id);
        throw twoFactorSetupRequired({ challenge, expiresAt: expiresAt.toISOString() });
      }
      return completeLogin(request, user, now);
    },
  );

  app.post(
    API_PATHS.loginSecondFactor,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'Finish a login that answered 602: the six-digit authenticator code or a recovery code',
        description:
          'Answers like Login_web on success. Refusals are HTTP 200 code 600: wrong code (counts toward the account lockout), expired or used challenge, locked account, address must wait.',
        body: loginSecondFactorRequestSchema,
        response: { 200: z.union([envelopeSchema(loginResponseSchema), failureEnvelopeSchema]) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const found = await findLoginChallenge(app.db, request.body.challenge, now);
      const [user] = found ? await app.db.select().from(users).where(eq(users.id, found.userId)) : [];
      if (!found || !user) throw loginFailed(msg('login.challengeExpired'));
      await assertAddressMayTry(request, user.loginName, now);
      await assertNotLocked(request, user.loginName, user.id, now);
      if (!(await checkSecondFactor(app.db, user.id, request.body.code, now))) {
        await recordLoginAttempt(app.db, {
          loginName: user.loginName,
          userId: user.id,
          ip: request.ip,
          userAgent: userAgentOf(request),
          outcome: 'bad_second_factor',
          at: now,
        });
        throw loginFailed(msg('login.wrongSecondFactor'));
      }
      // The account may have been disabled while the code was typed.
      if (!(await consumeLoginChallenge(app.db, found.id, now)) || !user.enabled) throw loginFailed(msg('login.challengeExpired'));
      return completeLogin(request, user, now);
    },
  );

  /**
   * The account of an open challenge from a 603: one that may use two-factor sign-in and has no
   * authenticator yet. Refused like an expired sign-in otherwise, so a 602 challenge cannot replace one.
   */
  async function setupAccountOf(request: FastifyRequest, challenge: string, now: Date) {
    const found = await findLoginChallenge(app.db, challenge, now);
    const [user] = found ? await app.db.select().from(users).where(eq(users.id, found.userId)) : [];
    if (!found || !user || !TWO_FACTOR_ACCOUNT_TYPES.includes(user.type) || (await requiresSecondFactor(app.db, user.id))) {
      throw loginFailed(msg('login.challengeExpired'));
    }
    await assertAddressMayTry(request, user.loginName, now);
    await assertNotLocked(request, user.loginName, user.id, now);
    return { challengeId: found.id, user };
  }

  app.post(
    API_PATHS.beginTwoFactorSetup,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'After a 603: a new authenticator secret for the account, shown once as a key and an otpauth:// address',
        description: 'Refusals are HTTP 200 code 600: expired or used challenge, locked account, address must wait.',
        body: beginTwoFactorSetupRequestSchema,
        response: { 200: z.union([envelopeSchema(totpEnrolmentSchema), failureEnvelopeSchema]) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const { user } = await setupAccountOf(request, request.body.challenge, now);
      return ok(await beginTotpEnrolment(app.db, user, now));
    },
  );

  app.post(
    API_PATHS.confirmTwoFactorSetup,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'After a 603: confirm the new authenticator with its code; answers the session and the recovery codes once',
        description: 'Refusals are HTTP 200 code 600: wrong code (counts toward the account lockout), expired or used challenge, locked account, address must wait.',
        body: confirmTwoFactorSetupRequestSchema,
        response: { 200: z.union([envelopeSchema(twoFactorSetupLoginSchema), failureEnvelopeSchema]) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const { challengeId, user } = await setupAccountOf(request, request.body.challenge, now);
      const recoveryCodes = await confirmTotpEnrolment(app.db, user.id, request.body.code, now);
      if (!recoveryCodes) {
        await recordLoginAttempt(app.db, { loginName: user.loginName, userId: user.id, ip: request.ip, userAgent: userAgentOf(request), outcome: 'bad_second_factor', at: now });
        throw loginFailed(msg('login.wrongSecondFactor'));
      }
      // The authenticator stays set up either way; a sign-in that lost the race starts again from the password.
      if (!(await consumeLoginChallenge(app.db, challengeId, now)) || !user.enabled) throw loginFailed(msg('login.challengeExpired'));
      return ok({ login: await startSession(request, user, now), recoveryCodes });
    },
  );

  app.post(
    API_PATHS.logout,
    { schema: { tags: ['Account'], summary: 'Log out: ends the session of the token', response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await endSession(app.db, request.user.sessionId);
      announceSessionsEnded(app.messenger, [request.user.sessionId]);
      return ok(null);
    },
  );

  app.post(
    API_PATHS.accountSendSmsCode,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'Send a password-reset code to the phone of an account',
        description: 'Answers the same whether or not the phone belongs to the account, so accounts cannot be probed. One code per phone per minute (HTTP 429).',
        body: sendSmsCodeRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { userName, phoneNum } = request.body;
      const [user] = await app.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.loginName, userName), eq(users.phoneNum, phoneNum), eq(users.enabled, true)));
      await issueSmsCode({ db: app.db, sms: app.sms, now: app.clock.now() }, { phone: phoneNum, purpose: 'resetPassword', deliver: user !== undefined, ip: request.ip });
      return ok(null);
    },
  );

  app.post(
    API_PATHS.accountUpdatePassword,
    {
      config: { public: true },
      schema: {
        tags: ['Account'],
        summary: 'Set a new password with an SMS code (forgot password, or code 601)',
        description: 'Clears the must-change-password flag and ends every session of the account.',
        body: updateUserPasswordRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { userName, phoneNum, smsCode, newPassword } = request.body;
      const now = app.clock.now();
      const isCodeValid = await consumeSmsCode(app.db, { phone: phoneNum, purpose: 'resetPassword', code: smsCode, now });
      const [user] = await app.db.select().from(users).where(and(eq(users.loginName, userName), eq(users.phoneNum, phoneNum)));
      if (!isCodeValid || !user) throw badRequest([{ path: 'smsCode', ...msg('validation.wrongSmsCode') }]);
      // Checked only after a valid code, so this answer cannot be used to test passwords.
      if (await verifyPassword(newPassword, user.passwordHash)) {
        throw badRequest([{ path: 'newPassword', ...msg('validation.mustDiffer') }]);
      }
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction(async (tx) => {
        await updateRecords(tx, CompanyUser, [user.id], { values: { passwordHash, mustChangePassword: false }, now });
        await endSessionsOfUser(tx, user.id);
      });
      return ok(null);
    },
  );
};
