import {
  ALWAYS_ALLOWED_ROUTES,
  FRAME_BY_ID,
  FRAME_BY_INDEX,
  SIGN_CARD_MODE_ROUTES,
  frameOf,
  type ButtonValue,
  type UserType,
} from '@campus/contract';
import { and, eq, or } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { grants, users } from '../db/schema/index.js';
import type { AuthUser } from './auth.js';
import { forbidden } from './errors.js';
import { getSignCardMode } from './settings.js';

/** Frame fixedId → the button values held on it. */
export type EffectiveGrant = Map<number, Set<ButtonValue>>;

type GrantSubject = Pick<AuthUser, 'id' | 'type' | 'parentId'>;

/** Rows → grant, keeping only frames and buttons the contract still declares. */
function toGrant(rows: { frameId: number; buttons: string[] }[]): EffectiveGrant {
  const grant: EffectiveGrant = new Map();
  for (const row of rows) {
    const frame = FRAME_BY_ID.get(row.frameId);
    if (!frame) continue;
    const declared = new Set<string>(frame.buttons);
    grant.set(row.frameId, new Set(row.buttons.filter((button): button is ButtonValue => declared.has(button))));
  }
  return grant;
}

/**
 * A user's own override when it has any grant row, else its user type's grant. Both are read in one
 * query: this runs on every guarded call, and each round trip adds to every answer's latency.
 */
async function storedGrant(db: Database, userId: number, type: UserType): Promise<EffectiveGrant> {
  const rows = await db
    .select({ subjectType: grants.subjectType, frameId: grants.frameId, buttons: grants.buttons })
    .from(grants)
    .where(or(and(eq(grants.subjectType, 'user'), eq(grants.userId, userId)), and(eq(grants.subjectType, 'type'), eq(grants.userType, type))));
  const own = rows.filter((row) => row.subjectType === 'user');
  return toGrant(own.length > 0 ? own : rows);
}

function intersect(grant: EffectiveGrant, limit: EffectiveGrant): EffectiveGrant {
  const result: EffectiveGrant = new Map();
  for (const [frameId, buttons] of grant) {
    const allowed = limit.get(frameId);
    if (allowed) result.set(frameId, new Set([...buttons].filter((button) => allowed.has(button))));
  }
  return result;
}

/** index and personalInformation ('refresh' is a helper route, not a frame). */
const ALWAYS_ALLOWED_IDS = ALWAYS_ALLOWED_ROUTES.flatMap((index) => FRAME_BY_INDEX.get(index)?.fixedId ?? []);
const SIGN_CARD_FRAME_IDS = SIGN_CARD_MODE_ROUTES.map((index) => frameOf(index).fixedId);

/**
 * The frames and buttons a user holds now: its per-user override if any, else its type's grant;
 * a child account is cut to what its parent agent holds; codeManageA/B vanish while sign-card mode is
 * off; index and personalInformation are always there. Read fresh on every call (no cache).
 */
export async function getEffectiveGrant(db: Database, user: GrantSubject): Promise<EffectiveGrant> {
  const [stored, signCardMode] = await Promise.all([storedGrant(db, user.id, user.type), getSignCardMode(db)]);
  let grant = stored;
  if (user.type === 'child') {
    const [parent] = user.parentId === null ? [] : await db.select({ id: users.id, type: users.type }).from(users).where(eq(users.id, user.parentId));
    grant = parent ? intersect(grant, await storedGrant(db, parent.id, parent.type)) : new Map();
  }
  if (!signCardMode) {
    for (const frameId of SIGN_CARD_FRAME_IDS) grant.delete(frameId);
  }
  for (const frameId of ALWAYS_ALLOWED_IDS) {
    if (!grant.has(frameId)) grant.set(frameId, new Set());
  }
  return grant;
}

const grantOfRequest = new WeakMap<FastifyRequest, Promise<EffectiveGrant>>();

/** The caller's effective grant, computed at most once per request. */
export function getRequestGrant(request: FastifyRequest): Promise<EffectiveGrant> {
  let grant = grantOfRequest.get(request);
  if (!grant) {
    grant = getEffectiveGrant(request.server.db, request.user);
    grantOfRequest.set(request, grant);
  }
  return grant;
}

/**
 * Route guard: HTTP 403 'access denied' unless the caller holds the frame (and the button value,
 * when given). Use as `onRequest` to refuse before the input is validated, or as `preHandler`.
 * Unknown frame names and buttons the frame does not declare throw at start-up.
 */
export function requireFrame(frameIndex: string, button?: ButtonValue): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const frame = frameOf(frameIndex);
  if (button && !frame.buttons.includes(button)) throw new Error(`Frame '${frameIndex}' declares no button '${button}'`);
  return async (request) => {
    const held = (await getRequestGrant(request)).get(frame.fixedId);
    if (!held || (button !== undefined && !held.has(button))) throw forbidden();
  };
}
