/**
 * Parent sign-in: phone + the MD5 hex of the app password (stored as the console's are), or phone +
 * an SMS code sent by SendSignInCode; sign-out. Refusals answer as the console's login does (HTTP 200,
 * code 600) and count the same way: five wrong credentials lock the phone for ten minutes, and an
 * address that keeps failing waits longer each time (platform/login-throttle.ts, per address across
 * both channels). Login-log rows of the app name the account `app:<phone>`.
 */
import { APP_PATHS, appSendSignInCodeSchema, appSessionSchema, appSignInSchema } from '@campus/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parents, type LoginOutcome } from '../db/schema/index.js';
import { bearerToken } from '../platform/auth.js';
import { envelopeSchema, failureEnvelopeSchema, ok } from '../platform/envelope.js';
import { loginFailed, msg } from '../platform/errors.js';
import { assertAddressMayTry, assertNotLocked, recordLoginAttempt } from '../platform/login-throttle.js';
import { dummyPasswordHash, verifyPassword } from '../platform/passwords.js';
import { consumeSmsCode, issueSmsCode } from '../platform/sms.js';
import { createParentSession, endParentSession, forgetParentToken } from './sessions.js';

const tags = ['App'];
const loginNameOf = (phoneNum: string) => `app:${phoneNum}`;

interface ParentAccount {
  id: number;
  name: string;
  phoneNum: string;
  passwordHash: string | null;
  enabled: boolean;
}

async function parentByPhone(db: FastifyRequest['server']['db'], phoneNum: string): Promise<ParentAccount | undefined> {
  const found = (await db.execute(
    sql`select id, name, phone_num as "phoneNum", password_hash as "passwordHash", coalesce(enabled, true) as enabled from parents where phone_num = ${phoneNum}`,
  )) as unknown as { rows: Record<string, unknown>[] };
  const row = found.rows[0];
  return row ? { id: Number(row.id), name: String(row.name), phoneNum: String(row.phoneNum), passwordHash: (row.passwordHash as string | null) ?? null, enabled: row.enabled === true } : undefined;
}

export const signInRoutes: FastifyPluginAsyncZod = async (app) => {
  const userAgentOf = (request: FastifyRequest) => request.headers['user-agent'];

  app.post(
    APP_PATHS.sendSignInCode,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Send a sign-in code by SMS to a parent\'s phone',
        description: 'Answers the same whether or not the phone is a parent\'s, so accounts cannot be probed. One code per phone per minute and ten per address per hour (HTTP 429).',
        body: appSendSignInCodeSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const parent = await parentByPhone(app.db, request.body.phoneNum);
      await issueSmsCode({ db: app.db, sms: app.sms, now: app.clock.now() }, { phone: request.body.phoneNum, purpose: 'parentSignIn', deliver: parent?.enabled === true, ip: request.ip });
      return ok(null);
    },
  );

  app.post(
    APP_PATHS.signIn,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign a parent in with phone + MD5 password, or phone + SMS code; answers a parent token',
        description:
          'Refusals are HTTP 200 code 600 (wrong password or code, unknown phone, disabled, locked, address must wait), like the console\'s Login_web. The token opens the /api/App calls only.',
        body: appSignInSchema,
        response: { 200: z.union([envelopeSchema(appSessionSchema), failureEnvelopeSchema]) },
      },
    },
    async (request) => {
      const now = app.clock.now();
      const { phoneNum, password, smsCode } = request.body;
      const loginName = loginNameOf(phoneNum);
      const record = (outcome: LoginOutcome) => recordLoginAttempt(app.db, { loginName, ip: request.ip, userAgent: userAgentOf(request), outcome, at: now });

      const attempt = { loginName, ip: request.ip, userAgent: userAgentOf(request), now };
      await assertAddressMayTry(app.db, attempt);
      await assertNotLocked(app.db, attempt);
      const parent = await parentByPhone(app.db, phoneNum);
      if (smsCode !== undefined) {
        // The code is burnt by a right guess only; an unknown phone was never sent one.
        const isCodeValid = await consumeSmsCode(app.db, { phone: phoneNum, purpose: 'parentSignIn', code: smsCode, now });
        if (!parent || !isCodeValid) {
          await record(parent ? 'bad_password' : 'unknown_user');
          throw loginFailed(msg('app.wrongSmsCode'));
        }
      } else {
        // A parent without an app password, or no parent at all, costs as long as a wrong password.
        const isPasswordValid = await verifyPassword(password!, parent?.passwordHash ?? (await dummyPasswordHash()));
        if (!parent || !parent.passwordHash || !isPasswordValid) {
          await record(parent ? 'bad_password' : 'unknown_user');
          throw loginFailed(msg('login.wrongPassword'));
        }
      }
      if (!parent.enabled) {
        await record('disabled');
        throw loginFailed(msg('login.disabled'));
      }
      const session = await app.db.transaction(async (tx) => {
        const created = await createParentSession(tx, { parentId: parent.id, now, ip: request.ip, userAgent: userAgentOf(request) });
        await tx.update(parents).set({ lastLoginAt: now }).where(eq(parents.id, parent.id));
        await recordLoginAttempt(tx, { loginName, ip: request.ip, userAgent: userAgentOf(request), outcome: 'success', at: now });
        return created;
      });
      return ok({ token: session.token, expiresAt: session.expiresAt.toISOString(), parent: { id: parent.id, name: parent.name, phoneNum: parent.phoneNum } });
    },
  );

  app.post(
    APP_PATHS.signOut,
    { config: { parentChannel: true }, schema: { tags, summary: 'Sign out: ends the session of the parent token', response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await endParentSession(app.db, request.parent.sessionId);
      // This instance refuses the token from its next call on; the others when the database's notice arrives.
      const token = bearerToken(request);
      if (token) forgetParentToken(app.callerMemory, token);
      return ok(null);
    },
  );
};
