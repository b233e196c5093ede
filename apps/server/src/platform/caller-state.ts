/**
 * What a call needs to know about its caller beyond the session — grant, data scope, visibility
 * probes — read in one round trip. Every guarded call waits on it; four parallel queries cost each
 * call four backend wake-ups, which on a small machine is most of the time an answer takes beyond
 * the database's own work (docs/performance.md).
 */
import { ALWAYS_ALLOWED_ROUTES, FRAME_BY_ID, FRAME_BY_INDEX, SIGN_CARD_MODE_ROUTES, frameOf, type ButtonValue, type VisibilityProbes } from '@campus/contract';
import { and, eq, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { grants, settings, users } from '../db/schema/index.js';
import type { AuthUser } from './auth.js';
import { probesOf, probesTypeKey, probesUserKey } from './probes.js';
import { scopeSchoolIdsArraySql, scopeSchoolIdsSql, type SchoolScope } from './scope.js';
import { SIGN_CARD_MODE_KEY, isSignCardModeOn } from './settings.js';

/** Frame fixedId → the button values held on it. */
export type EffectiveGrant = Map<number, Set<ButtonValue>>;

export interface CallerState {
  grant: EffectiveGrant;
  scope: SchoolScope;
  probes: VisibilityProbes;
}

export type CallerSubject = Pick<AuthUser, 'id' | 'type' | 'parentId'>;

/** A grant row as the state query answers it: [subject type, frame id, buttons]. */
type GrantTuple = ['type' | 'user', number, string[]];

/** Rows → grant, keeping only frames and buttons the contract still declares. */
function toGrant(rows: readonly GrantTuple[]): EffectiveGrant {
  const grant: EffectiveGrant = new Map();
  for (const [, frameId, buttons] of rows) {
    const frame = FRAME_BY_ID.get(frameId);
    if (!frame) continue;
    const declared = new Set<string>(frame.buttons);
    grant.set(frameId, new Set(buttons.filter((button): button is ButtonValue => declared.has(button))));
  }
  return grant;
}

/** A user's own override when it has any grant row, else its user type's grant. */
function storedGrantOf(rows: readonly GrantTuple[]): EffectiveGrant {
  const own = rows.filter(([subjectType]) => subjectType === 'user');
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
 * The frames and buttons a user holds: its override or its type's grant; a child account cut to what
 * its parent agent holds (`parentRows` null: no such parent, nothing held); codeManageA/B gone while
 * sign-card mode is off; index and personalInformation always there.
 */
function effectiveGrantOf(rows: readonly GrantTuple[], parentRows: readonly GrantTuple[] | null | undefined, isChild: boolean, signCardMode: boolean): EffectiveGrant {
  let grant = storedGrantOf(rows);
  if (isChild) grant = parentRows ? intersect(grant, storedGrantOf(parentRows)) : new Map();
  if (!signCardMode) {
    for (const frameId of SIGN_CARD_FRAME_IDS) grant.delete(frameId);
  }
  for (const frameId of ALWAYS_ALLOWED_IDS) {
    if (!grant.has(frameId)) grant.set(frameId, new Set());
  }
  return grant;
}

/** Grant rows of a user (its own and its type's) as a JSON array of tuples. */
function grantRowsSql(userId: SQLWrapper | number, userType: SQLWrapper | string): SQL<GrantTuple[]> {
  return sql<GrantTuple[]>`(select coalesce(json_agg(json_build_array(${grants.subjectType}, ${grants.frameId}, ${grants.buttons})), '[]'::json)
    from ${grants}
    where ${or(and(eq(grants.subjectType, 'user'), sql`${grants.userId} = ${userId}`), and(eq(grants.subjectType, 'type'), sql`${grants.userType} = ${userType}`))})`;
}

/** Reads the caller's grant, scope and probes in one query, fresh (cachedCallerState reuses it). */
export async function loadCallerState(db: Database, user: CallerSubject): Promise<CallerState> {
  const typeKey = probesTypeKey(user.type);
  const userKey = probesUserKey(user.id);
  const isChild = user.type === 'child';
  const scopeIds = scopeSchoolIdsSql(user);
  const [row] = await db
    .select({
      grants: grantRowsSql(user.id, user.type),
      // A child's parent agent, by its own id and type: null when the parent is gone.
      parentGrants: isChild
        ? sql<GrantTuple[] | null>`(select ${grantRowsSql(users.id, users.type)} from ${users} where ${users.id} = ${user.parentId ?? 0})`
        : sql<null>`null`,
      settings: sql<Record<string, unknown>>`(select coalesce(json_object_agg(${settings.key}, ${settings.value}), '{}'::json)
        from ${settings} where ${settings.key} in (${SIGN_CARD_MODE_KEY}, ${typeKey}, ${userKey}))`,
      schoolIds: scopeIds ? scopeSchoolIdsArraySql(scopeIds) : sql<null>`null`,
    })
    .from(sql`(select 1) as one`);
  const stored = row!.settings;
  return {
    grant: effectiveGrantOf(row!.grants, row!.parentGrants, isChild, isSignCardModeOn(stored[SIGN_CARD_MODE_KEY])),
    scope: row!.schoolIds === null ? { kind: 'all' } : { kind: 'schools', schoolIds: row!.schoolIds },
    probes: probesOf(user, stored[typeKey], stored[userKey]),
  };
}

/**
 * How long a caller's state is reused at most, even with the version unchanged: a safety net for a
 * change no trigger sees (none is known), short enough that such a change would still show soon.
 */
export const CALLER_STATE_MAX_AGE_MS = 60_000;

/** Cached states per database are dropped all at once past this many callers (a bound, not an LRU). */
const MAX_CACHED_CALLERS = 10_000;

interface CachedState {
  /** The caller-state version the state was read at (or after). */
  version: number;
  /** The account fields the state follows from; a different one reads again. */
  subject: string;
  loadedAt: number;
  state: Promise<CallerState>;
}

/** Per database (test apps each open their own), by account id. */
const cachedStates = new WeakMap<Database, Map<number, CachedState>>();

const subjectKey = (user: CallerSubject) => `${user.type}:${user.parentId ?? ''}`;

/**
 * The caller's state for a call whose session read `version`: from memory when it was read at that
 * version for the same account, else from the database. Every change to what a state is read from
 * bumps the version (triggers of migration 0032), and every call reads the version with its session,
 * so a grant revoked, a scope changed or a setting switched is seen by the next call on every
 * instance. The version is read before the state, so a state is never cached under a version newer
 * than what it saw.
 */
export function cachedCallerState(db: Database, user: CallerSubject, version: number, now: number): Promise<CallerState> {
  let byUser = cachedStates.get(db);
  if (!byUser) {
    byUser = new Map();
    cachedStates.set(db, byUser);
  }
  const subject = subjectKey(user);
  const cached = byUser.get(user.id);
  if (cached && cached.version === version && cached.subject === subject && now - cached.loadedAt < CALLER_STATE_MAX_AGE_MS) return cached.state;
  const state = loadCallerState(db, user);
  if (byUser.size >= MAX_CACHED_CALLERS) byUser.clear();
  const entry: CachedState = { version, subject, loadedAt: now, state };
  byUser.set(user.id, entry);
  // A failed read is not kept: the next call tries again.
  state.catch(() => {
    if (byUser.get(user.id) === entry) byUser.delete(user.id);
  });
  return state;
}

const stateOfRequest = new WeakMap<FastifyRequest, Promise<CallerState>>();

/** The caller's state, read at most once per request, and reused across calls while its version holds. */
export function getRequestState(request: FastifyRequest): Promise<CallerState> {
  let state = stateOfRequest.get(request);
  if (!state) {
    const { user } = request;
    state = user.stateVersion === undefined ? loadCallerState(request.server.db, user) : cachedCallerState(request.server.db, user, user.stateVersion, request.server.clock.now().getTime());
    stateOfRequest.set(request, state);
  }
  return state;
}
