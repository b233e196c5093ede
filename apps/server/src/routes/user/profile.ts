/** The caller's profile and visibility probes (personalInformation). */
import {
  API_PATHS,
  TWO_FACTOR_ACCOUNT_TYPES,
  loginUserInfoSchema,
  updateLoginUserInfoRequestSchema,
  visibilityProbesSchema,
  type LoginUserInfo,
  CompanyUser,
} from '@campus/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.js';
import { envelopeSchema, ok } from '../../platform/envelope.js';
import { homeSchoolOf } from '../../platform/home-school.js';
import { getRequestState } from '../../platform/caller-state.js';
import { twoFactorStatus } from '../../platform/two-factor.js';
import { updateRecords } from '../../resources/engine/services.js';
import { emptyToNull, loadUser, callerRefunds, type UserRow } from './caller.js';

/** The profile as the personalInformation page shows it. */
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


export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
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

};
