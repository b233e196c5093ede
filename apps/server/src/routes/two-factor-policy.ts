/**
 * The company's two-factor policy (ASVS 4.3.1), on the company users page: when it is on, company
 * administrators sign in only with an authenticator (Login_web answers 603 to one without it, and
 * the login page sets one up before any session starts).
 */
import { API_PATHS, CompanyUser, twoFactorPolicySchema, type TwoFactorPolicy } from '@campus/contract';
import { and, eq, inArray, isNotNull, notInArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../db/client.js';
import { sessions, users, userTotp } from '../db/schema/index.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { badRequest, msg } from '../platform/errors.js';
import { requireCompanyUser, requireFrame } from '../platform/permissions.js';
import { isTwoFactorRequired, setTwoFactorRequired, twoFactorStatus } from '../platform/two-factor.js';
import { logOperation } from '../resources/engine/services.js';

/** GetTwoFactorPolicy (anyone with the page) and SaveTwoFactorPolicy (company users holding its `password` button). */
export const twoFactorPolicyRoutes: FastifyPluginAsyncZod = async (app) => {
  const answer = envelopeSchema(twoFactorPolicySchema);
  app.get(
    API_PATHS.twoFactorPolicy,
    {
      onRequest: requireFrame('userCompany'),
      schema: { tags: [CompanyUser.name], summary: 'Whether company administrators must sign in with an authenticator', response: { 200: answer } },
    },
    async () => ok<TwoFactorPolicy>({ required: await isTwoFactorRequired(app.db) }),
  );
  app.post(
    API_PATHS.saveTwoFactorPolicy,
    {
      onRequest: [requireFrame('userCompany', 'password'), requireCompanyUser],
      schema: {
        tags: [CompanyUser.name],
        summary: 'Make two-factor sign-in mandatory for company administrators, or optional again',
        description:
          'Turning it on needs the caller’s own authenticator, and ends the sessions of company administrators without one: they set one up at their next sign-in.',
        body: twoFactorPolicySchema,
        response: { 200: answer },
      },
    },
    async (request) => {
      const { required } = request.body;
      // Otherwise the administrator who turns it on would be the first one sent to set it up.
      if (required && !(await twoFactorStatus(app.db, request.user.id)).enabled) throw badRequest([{ path: 'required', ...msg('twoFactor.ownFirst') }]);
      await app.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        const previous = await isTwoFactorRequired(db);
        await setTwoFactorRequired(db, required);
        if (required) {
          const enrolled = db.select({ userId: userTotp.userId }).from(userTotp).where(isNotNull(userTotp.confirmedAt));
          const unenrolled = db.select({ id: users.id }).from(users).where(and(eq(users.type, 'company'), notInArray(users.id, enrolled)));
          await db.delete(sessions).where(inArray(sessions.userId, unenrolled));
        }
        await logOperation(tx, { userId: request.user.id, family: CompanyUser.name, action: 'twoFactorPolicy', ids: [], changes: { required: [previous, required] } });
      });
      return ok<TwoFactorPolicy>({ required });
    },
  );
};
