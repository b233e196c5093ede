import { BACKGROUND_REQUEST_HEADER, ErrorCode, type SellerPosition, type UserType } from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { unauthorized } from './errors.js';
import { endSession, touchSession } from './sessions.js';

/** The signed-in caller, as every guarded route sees it on `request.user`. */
export interface AuthUser {
  id: number;
  loginName: string;
  name: string;
  type: UserType;
  parentId: number | null;
  salesTeamId: number | null;
  sellerPosition: SellerPosition | null;
  sessionId: number;
  /**
   * The caller-state version read with the session: the caller's grant, scope and probes may be
   * reused from memory while it is unchanged (caller-state.ts). Absent: always read fresh.
   */
  stateVersion?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every /api route that is not `config: { public: true }`; absent on public routes. */
    user: AuthUser;
  }
}

/** `Authorization: Bearer <token>` → the token, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

const backgroundHeader = BACKGROUND_REQUEST_HEADER.toLowerCase();

/** Whether the web marked the call as a poll the user did not ask for (`X-Background: 1`). */
function isBackgroundCall(request: FastifyRequest): boolean {
  return request.headers[backgroundHeader] === '1';
}

/**
 * Whether the matched route needs a console session: /api routes unless declared public or the parent
 * app's (those take a parent's session instead). Unmatched URLs answer 404.
 */
function needsSession(request: FastifyRequest): boolean {
  // routeOptions builds a new object on each read: read it once.
  const { url, config } = request.routeOptions;
  return url !== undefined && url.startsWith('/api/') && config.public !== true && config.parentChannel !== true;
}

/** Finds a token's session and slides it: the sessions table's `touchSession`, unless the app is built with another. */
export type SessionLookupFn = typeof touchSession;

export interface AuthOptions {
  /** Defaults to `touchSession`; a test sending thousands of calls as one caller may memoize it (test/security/fuzz-suite.ts). */
  lookupSession?: SessionLookupFn;
}

/**
 * Authenticates every non-public /api route from its bearer token: unknown or missing token →
 * HTTP 401 '10010', expired → HTTP 401 '10011'. Disabled accounts lose their session at once.
 * Background calls are refused the same way but do not keep the session alive.
 */
export const authPlugin = fp<AuthOptions>(
  async (app, { lookupSession = touchSession }) => {
    // Fastify wants request properties declared up front; it stays null until the hook sets it.
    app.decorateRequest('user', null as unknown as AuthUser);
    app.addHook('onRequest', async (request) => {
      if (!needsSession(request)) return;
      const token = bearerToken(request);
      if (!token) throw unauthorized(ErrorCode.TokenInvalid);
      const lookup = app.callerMemory && lookupSession === touchSession ? app.callerMemory.lookup : lookupSession;
      const session = await lookup(app.db, token, app.env.sessionLimits, app.clock.now(), { isActivity: !isBackgroundCall(request) });
      if (session.status === 'expired') throw unauthorized(ErrorCode.TokenExpired);
      if (session.status === 'unknown') throw unauthorized(ErrorCode.TokenInvalid);
      const { user } = session;
      if (!user.enabled) {
        await endSession(app.db, session.sessionId);
        throw unauthorized(ErrorCode.TokenInvalid);
      }
      request.user = {
        id: user.id,
        loginName: user.loginName,
        name: user.name,
        type: user.type,
        parentId: user.parentId,
        salesTeamId: user.salesTeamId,
        sellerPosition: user.sellerPosition,
        sessionId: session.sessionId,
        stateVersion: session.stateVersion,
      };
    });
  },
  { name: 'auth', dependencies: ['context', 'error-handler', 'caller-memory'] },
);
