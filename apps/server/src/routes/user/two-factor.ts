/** The caller's own two-factor sign-in: set up, confirm, turn off (company administrators). */
import {
  API_PATHS,
  beginTotpRequestSchema,
  confirmTotpRequestSchema,
  disableTotpRequestSchema,
  recoveryCodesSchema,
  totpEnrolmentSchema,
  TWO_FACTOR_ACCOUNT_TYPES,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../../platform/envelope.js';
import { badRequest, forbidden, msg } from '../../platform/errors.js';
import { accountLockedUntil, recordLoginAttempt } from '../../platform/login-throttle.js';
import { beginTotpEnrolment, checkSecondFactor, confirmTotpEnrolment, disableTotp, twoFactorStatus } from '../../platform/two-factor.js';

import { loadUser, assertPassword } from './caller.js';

export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
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

};
