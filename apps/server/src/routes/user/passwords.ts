/** The caller's password and refund password, each changed with an SMS code sent to its own phone. */
import {
  API_PATHS,
  smsCodeSentSchema,
  updateLoginUserPasswordRequestSchema,
  updateRefundPasswordRequestSchema,
  userSendSmsCodeRequestSchema,
  CompanyUser,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema, ok } from '../../platform/envelope.js';
import { badRequest, forbidden, msg } from '../../platform/errors.js';
import { hashPassword } from '../../platform/passwords.js';
import { endSessionsOfUser } from '../../platform/sessions.js';
import { issueSmsCode, maskPhone } from '../../platform/sms.js';
import { updateRecords } from '../../resources/engine/services.js';
import { loadUser, assertPassword, assertSmsCode, callerRefunds } from './caller.js';

export const passwordRoutes: FastifyPluginAsyncZod = async (app) => {
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

};
