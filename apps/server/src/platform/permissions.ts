import { frameOf, type ButtonValue } from '@campus/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { getRequestState, loadCallerState, type CallerSubject, type EffectiveGrant } from './caller-state.js';
import { forbidden, msg } from './errors.js';

export type { EffectiveGrant } from './caller-state.js';

/** The frames and buttons a user holds now (see caller-state.ts). Read fresh on every call (no cache). */
export async function getEffectiveGrant(db: Database, user: CallerSubject): Promise<EffectiveGrant> {
  return (await loadCallerState(db, user)).grant;
}

/** The caller's effective grant, computed at most once per request. */
export async function getRequestGrant(request: FastifyRequest): Promise<EffectiveGrant> {
  return (await getRequestState(request)).grant;
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

/**
 * HTTP 403 "only company administrators" unless the caller is company staff, whatever its grant
 * holds (an agent or a school account must not change every customer's settings or type grants).
 */
export function assertCompanyUser(request: FastifyRequest): void {
  if (request.user.type !== 'company') throw forbidden(msg('error.onlyCompany'));
}

/** Route guard for platform-wide settings: assertCompanyUser as an onRequest hook. */
export async function requireCompanyUser(request: FastifyRequest): Promise<void> {
  assertCompanyUser(request);
}
