import { FRAMES, type BadgeKey, type BadgeCounts } from '@campus/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { AuthUser } from './auth.js';
import type { EffectiveGrant } from './permissions.js';
import type { SchoolScope } from './scope.js';

export interface BadgeContext {
  db: Database;
  user: AuthUser;
  scope: SchoolScope;
}

/** Counts the pending items behind one badge, inside the caller's scope. */
export type BadgeCounter = (context: BadgeContext) => Promise<number>;

/** A menu badge: its key (the frames showing it are in the contract's menu) and its counter. */
export interface Badge {
  key: BadgeKey;
  count: BadgeCounter;
}

let counters = new Map<BadgeKey, BadgeCounter>();

/** Installs the badges of the family modules at start (resources/families.ts), replacing any installed before. */
export function installBadges(badges: readonly Badge[]): void {
  const installed = new Map<BadgeKey, BadgeCounter>();
  for (const badge of badges) {
    if (installed.has(badge.key)) throw new Error(`badge ${badge.key} is counted twice`);
    installed.set(badge.key, badge.count);
  }
  counters = installed;
}

/** Frame fixedIds showing each badge key. */
const FRAMES_BY_BADGE = new Map<BadgeKey, number[]>();
for (const frame of FRAMES) {
  if (frame.badge) FRAMES_BY_BADGE.set(frame.badge, [...(FRAMES_BY_BADGE.get(frame.badge) ?? []), frame.fixedId]);
}

/**
 * Counts every registered badge whose frame the caller holds. A counter that fails is left out and
 * logged: the client ignores count failures (SEED-SPEC section 7), so one must not hide the others.
 */
export async function countBadges(context: BadgeContext, grant: EffectiveGrant, log: FastifyBaseLogger): Promise<BadgeCounts> {
  const visible = [...counters].filter(([key]) => (FRAMES_BY_BADGE.get(key) ?? []).some((frameId) => grant.has(frameId)));
  const results = await Promise.allSettled(visible.map(([, counter]) => counter(context)));
  const counts: BadgeCounts = {};
  results.forEach((result, position) => {
    const key = visible[position]![0];
    if (result.status === 'fulfilled') counts[key] = result.value;
    else log.error({ err: result.reason, badge: key }, 'badge counter failed');
  });
  return counts;
}
