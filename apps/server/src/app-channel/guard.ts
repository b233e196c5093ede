/**
 * The parent's session on every channel call: `Authorization: Bearer <token>` of a parent session →
 * `request.parent`, else HTTP 401 ('10010' unknown, '10011' expired) exactly as the console answers.
 * A disabled parent loses every session at its next call.
 */
import { ErrorCode } from '@campus/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../platform/auth.js';
import { notFound, unauthorized } from '../platform/errors.js';
import { endParentSessions, touchParentSessionKept, type AppParent } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on every parent channel call (`config.parentChannel`); absent elsewhere. */
    parent: AppParent;
  }
}

/** Installs the hook on the channel's plugin: its routes with `config.parentChannel` need a parent's session. */
export function installParentGuard(app: FastifyInstance): void {
  app.decorateRequest('parent', null as unknown as AppParent);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.parentChannel !== true) return;
    const token = bearerToken(request);
    if (!token) throw unauthorized(ErrorCode.TokenInvalid);
    const found = await touchParentSessionKept(app.callerMemory, app.db, token, app.clock.now());
    if (found.status === 'expired') throw unauthorized(ErrorCode.TokenExpired);
    if (found.status === 'unknown') throw unauthorized(ErrorCode.TokenInvalid);
    if (!found.enabled) {
      await endParentSessions(app.db, found.parent.id);
      throw unauthorized(ErrorCode.TokenInvalid);
    }
    request.parent = found.parent;
  });
}

/** The parent's child of that id, or 404: another family's child is as absent as one that does not exist. */
export function childOf(request: FastifyRequest, studentId: number): { id: number; schoolId: number } {
  const child = request.parent.children.find((candidate) => candidate.id === studentId);
  if (!child) throw notFound();
  return child;
}
