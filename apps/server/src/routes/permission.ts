/**
 * jurisdictionManage: grants and visibility probes per user type and per user (the login log is the
 * LoginLog family).
 * Company administrators edit everything; an agent edits the grants of its own child accounts only,
 * and only with frames and buttons it holds itself. Grants are read on every request, so a change
 * takes effect at the user's next call without a new login.
 */
import {
  ALWAYS_ALLOWED_ROUTES,
  API_PATHS,
  FRAME_BY_ID,
  FRAMES,
  MENU_GROUPS,
  frameOf,
  grantAccountSchema,
  grantSubjectQuerySchema,
  grantTreeSchema,
  probeSettingsSchema,
  resetUserGrantRequestSchema,
  saveGrantRequestSchema,
  saveProbesRequestSchema,
  searchAccountsQuerySchema,
  type ButtonValue,
  type ConfigurableProbes,
  type GrantAccount,
  type GrantTree,
  type UserType,
} from '@campus/contract';
import { and, asc, eq, ilike, ne, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { grants, settings, users } from '../db/schema/index.js';
import { envelopeSchema, ok } from '../platform/envelope.js';
import { badRequest, forbidden, notFound, msg, type FieldProblem } from '../platform/errors.js';
import { assertCompanyUser, getRequestGrant, requireFrame, type EffectiveGrant } from '../platform/permissions.js';
import { DEFAULT_TYPE_PROBES, getVisibilityProbes, probesTypeKey, probesUserKey } from '../platform/probes.js';
import { containsPattern, prefixPattern } from '../platform/like-patterns.js';
import { getSetting, setSetting } from '../platform/settings.js';

const ALWAYS_ALLOWED_IDS = new Set(ALWAYS_ALLOWED_ROUTES.flatMap((index) => (index === 'refresh' ? [] : [frameOf(index).fixedId])));

type Subject = { userType: UserType; user: null } | { userType: UserType; user: GrantAccount };


const accountColumns = {
  id: users.id,
  loginName: users.loginName,
  name: users.name,
  type: users.type,
  parentId: users.parentId,
  enabled: users.enabled,
};

/**
 * The account whose grant the caller may read or change: any account for company staff, its own
 * child accounts for an agent (others answer 404, so accounts cannot be probed), none for the rest.
 */
async function manageableAccount(db: Database, request: FastifyRequest, userId: number): Promise<GrantAccount> {
  const caller = request.user;
  if (caller.type !== 'company' && caller.type !== 'agent') throw forbidden(msg('grant.onlyManagers'));
  const [account] = await db.select(accountColumns).from(users).where(eq(users.id, userId));
  if (!account || (caller.type === 'agent' && (account.type !== 'child' || account.parentId !== caller.id))) throw notFound(msg('grant.accountNotFound', { id: userId }));
  return account;
}

async function subjectOf(db: Database, request: FastifyRequest, query: { userType?: UserType; userId?: number }): Promise<Subject> {
  if (query.userId !== undefined) {
    const user = await manageableAccount(db, request, query.userId);
    return { userType: user.type, user };
  }
  assertCompanyUser(request);
  return { userType: query.userType!, user: null };
}

const subjectCondition = (subject: Subject): SQL =>
  subject.user
    ? and(eq(grants.subjectType, 'user'), eq(grants.userId, subject.user.id))!
    : and(eq(grants.subjectType, 'type'), eq(grants.userType, subject.userType))!;

/** Stored rows of a subject: a user's own rows, or (none) its type's, with whether they are its own. */
async function storedGrantOf(db: Database, subject: Subject): Promise<{ frames: Map<number, Set<string>>; isOverride: boolean }> {
  const read = async (condition: SQL) => db.select({ frameId: grants.frameId, buttons: grants.buttons }).from(grants).where(condition);
  let rows = await read(subjectCondition(subject));
  const isOverride = subject.user !== null && rows.length > 0;
  if (subject.user && rows.length === 0) rows = await read(subjectCondition({ userType: subject.userType, user: null }));
  return { frames: new Map(rows.map((row) => [row.frameId, new Set(row.buttons)])), isOverride };
}

/** What the caller may tick: everything for company staff, what it holds itself for an agent. */
async function grantableBy(request: FastifyRequest): Promise<EffectiveGrant | 'all'> {
  return request.user.type === 'company' ? 'all' : getRequestGrant(request);
}

function grantTreeOf(subject: Subject, stored: Map<number, Set<string>>, isOverride: boolean, grantable: EffectiveGrant | 'all'): GrantTree {
  const mayTick = (frameId: number, button?: ButtonValue) => {
    if (grantable === 'all') return true;
    const held = grantable.get(frameId);
    return held !== undefined && (button === undefined || held.has(button));
  };
  return {
    userType: subject.userType,
    user: subject.user,
    isOverride,
    groups: MENU_GROUPS.map((group) => ({
      id: group.id,
      key: group.key,
      title: group.zh,
      titleEn: group.en,
      frames: FRAMES.filter((frame) => frame.groupId === group.id)
        .sort((a, b) => a.sort - b.sort)
        .map((frame) => {
          const isAlwaysAllowed = ALWAYS_ALLOWED_IDS.has(frame.fixedId);
          const held = stored.get(frame.fixedId);
          return {
            fixedId: frame.fixedId,
            index: frame.index,
            title: frame.zh,
            titleEn: frame.en,
            granted: isAlwaysAllowed || held !== undefined,
            grantable: !isAlwaysAllowed && mayTick(frame.fixedId),
            isAlwaysAllowed,
            buttons: frame.buttons.map((value) => ({ value, granted: held?.has(value) ?? false, grantable: mayTick(frame.fixedId, value) })),
          };
        }),
    })),
  };
}

/**
 * Checks a submitted grant: known frames, buttons the frame declares, no frame twice (400); for an
 * agent, nothing it does not hold itself (403). Answers the rows to store, always-allowed frames included.
 */
function rowsToStore(frames: { frameId: number; buttons: ButtonValue[] }[], grantable: EffectiveGrant | 'all'): Map<number, ButtonValue[]> {
  const errors: FieldProblem[] = [];
  const rows = new Map<number, ButtonValue[]>();
  for (const [position, { frameId, buttons }] of frames.entries()) {
    const frame = FRAME_BY_ID.get(frameId);
    if (!frame) {
      errors.push({ path: `frames.${position}.frameId`, ...msg('grant.unknownFrame') });
      continue;
    }
    if (rows.has(frameId)) errors.push({ path: `frames.${position}.frameId`, ...msg('grant.frameTwice') });
    const undeclared = buttons.filter((button) => !frame.buttons.includes(button));
    if (undeclared.length > 0) errors.push({ path: `frames.${position}.buttons`, ...msg('grant.unknownButtons', { frame: frame.index, buttons: undeclared }) });
    rows.set(frameId, [...new Set(buttons)]);
  }
  if (errors.length > 0) throw badRequest(errors);
  if (grantable !== 'all') {
    for (const [frameId, buttons] of rows) {
      const held = grantable.get(frameId);
      if (!held || buttons.some((button) => !held.has(button))) throw forbidden(msg('grant.onlyHeld'));
    }
  }
  for (const frameId of ALWAYS_ALLOWED_IDS) if (!rows.has(frameId)) rows.set(frameId, []);
  return rows;
}

const configurableProbesOf = (probes: ConfigurableProbes & { isAgent?: boolean }): ConfigurableProbes => {
  const { isAgent: _isAgent, ...rest } = probes;
  return rest;
};

const probeOverridesSchema = probeSettingsSchema.shape.overrides;

export const permissionRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['Permission'];
  const canRead = requireFrame('jurisdictionManage');
  const canUpdate = requireFrame('jurisdictionManage', 'update');

  app.get(
    API_PATHS.getGrant,
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'The grant of a user type or of one user, as the tree of groups > frames > buttons',
        description: 'For a user, isOverride says whether it has its own grant; without one the tree shows its type grant.',
        querystring: grantSubjectQuerySchema,
        response: { 200: envelopeSchema(grantTreeSchema) },
      },
    },
    async (request) => {
      const subject = await subjectOf(app.db, request, request.query);
      const { frames, isOverride } = await storedGrantOf(app.db, subject);
      return ok(grantTreeOf(subject, frames, isOverride, await grantableBy(request)));
    },
  );

  app.post(
    API_PATHS.saveGrant,
    {
      onRequest: canUpdate,
      schema: {
        tags,
        summary: 'Replace the grant of a user type or of one user in one transaction',
        description:
          'Only company administrators edit type grants. An agent edits its own child accounts only and may grant only what it holds (403 otherwise). Takes effect at the user’s next call.',
        body: saveGrantRequestSchema,
        response: { 200: envelopeSchema(grantTreeSchema) },
      },
    },
    async (request) => {
      const subject = await subjectOf(app.db, request, request.body);
      if (subject.user?.id === request.user.id) throw forbidden(msg('grant.notOwn'));
      const grantable = await grantableBy(request);
      const rows = rowsToStore(request.body.frames, grantable);
      await app.db.transaction(async (tx) => {
        await tx.delete(grants).where(subjectCondition(subject));
        await tx.insert(grants).values(
          [...rows].map(([frameId, buttons]) =>
            subject.user
              ? { subjectType: 'user' as const, userId: subject.user.id, frameId, buttons }
              : { subjectType: 'type' as const, userType: subject.userType, frameId, buttons },
          ),
        );
      });
      const { frames, isOverride } = await storedGrantOf(app.db, subject);
      return ok(grantTreeOf(subject, frames, isOverride, grantable));
    },
  );

  app.post(
    API_PATHS.resetUserGrant,
    {
      onRequest: canUpdate,
      schema: {
        tags,
        summary: "Drop a user's own grant: it holds its type's grant again",
        body: resetUserGrantRequestSchema,
        response: { 200: envelopeSchema(grantTreeSchema) },
      },
    },
    async (request) => {
      const subject = await subjectOf(app.db, request, { userId: request.body.userId });
      if (subject.user?.id === request.user.id) throw forbidden(msg('grant.notOwn'));
      await app.db.delete(grants).where(subjectCondition(subject));
      const { frames, isOverride } = await storedGrantOf(app.db, subject);
      return ok(grantTreeOf(subject, frames, isOverride, await grantableBy(request)));
    },
  );

  app.get(
    API_PATHS.searchAccounts,
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Accounts whose grant the caller may edit, by login name or name',
        querystring: searchAccountsQuerySchema,
        response: { 200: envelopeSchema(z.array(grantAccountSchema)) },
      },
    },
    async (request) => {
      const caller = request.user;
      if (caller.type !== 'company' && caller.type !== 'agent') return ok([]);
      const conditions: (SQL | undefined)[] = [ne(users.id, caller.id)];
      if (caller.type === 'agent') conditions.push(eq(users.parentId, caller.id), eq(users.type, 'child'));
      const { keyword, limit } = request.query;
      if (keyword) conditions.push(or(ilike(users.loginName, prefixPattern(keyword)), ilike(users.name, containsPattern(keyword))));
      const rows = await app.db.select(accountColumns).from(users).where(and(...conditions)).orderBy(asc(users.loginName)).limit(limit);
      return ok(rows);
    },
  );

  app.get(
    API_PATHS.getProbes,
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Visibility probes of a user type or of one user (company administrators)',
        querystring: grantSubjectQuerySchema,
        response: { 200: envelopeSchema(probeSettingsSchema) },
      },
    },
    async (request) => {
      assertCompanyUser(request);
      const subject = await subjectOf(app.db, request, request.query);
      if (!subject.user) {
        const stored = probeOverridesSchema.safeParse(await getSetting(app.db, probesTypeKey(subject.userType)));
        return ok({ values: { ...DEFAULT_TYPE_PROBES[subject.userType], ...(stored.success ? stored.data : {}) }, overrides: {} });
      }
      const own = probeOverridesSchema.safeParse(await getSetting(app.db, probesUserKey(subject.user.id)));
      const values = configurableProbesOf(await getVisibilityProbes(app.db, { id: subject.user.id, type: subject.userType }));
      return ok({ values, overrides: own.success ? own.data : {} });
    },
  );

  app.post(
    API_PATHS.saveProbes,
    {
      onRequest: canUpdate,
      schema: {
        tags,
        summary: "Set a user type's probes, or one user's own probe values (the rest follow its type)",
        body: saveProbesRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      assertCompanyUser(request);
      const subject = await subjectOf(app.db, request, request.body);
      if (subject.user) {
        await setSetting(app.db, probesUserKey(subject.user.id), request.body.values);
      } else {
        const stored = probeOverridesSchema.safeParse(await getSetting(app.db, probesTypeKey(subject.userType)));
        await setSetting(app.db, probesTypeKey(subject.userType), {
          ...DEFAULT_TYPE_PROBES[subject.userType],
          ...(stored.success ? stored.data : {}),
          ...request.body.values,
        });
      }
      return ok(null);
    },
  );

  app.post(
    API_PATHS.resetUserProbes,
    {
      onRequest: canUpdate,
      schema: {
        tags,
        summary: "Drop one user's own probe values: its type's apply again",
        body: resetUserGrantRequestSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      assertCompanyUser(request);
      const subject = await subjectOf(app.db, request, { userId: request.body.userId });
      await app.db.delete(settings).where(eq(settings.key, probesUserKey(subject.user!.id)));
      return ok(null);
    },
  );
};
