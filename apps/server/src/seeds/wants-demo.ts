import type { Env } from '../env.js';
import type { DatabaseKind } from '../db/client.js';

/**
 * Whether a start seeds the demo data, whose accounts have published passwords (`Demo@123`, ASVS
 * 2.5.4). SEED_DEMO=1 always does and SEED_DEMO=0 never does; unset, only the embedded database
 * outside production does (the zero-set-up trial). PostgreSQL and NODE_ENV=production start with
 * the one admin of ADMIN_INITIAL_PASSWORD instead, so forgetting a variable never ships known passwords.
 */
export function wantsDemo(env: Pick<Env, 'SEED_DEMO' | 'NODE_ENV'>, kind: DatabaseKind): boolean {
  if (env.SEED_DEMO !== undefined) return env.SEED_DEMO === '1';
  return kind === 'pglite' && env.NODE_ENV !== 'production';
}
