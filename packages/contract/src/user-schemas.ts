/** Schemas of the user types and visibility probes declared in users.ts. */
import { z } from 'zod';
import { PROBE_NAMES, SELLER_POSITIONS, USER_TYPES, type ProbeName } from './users.js';

export const userTypeSchema = z.enum(USER_TYPES);
export const sellerPositionSchema = z.enum(SELLER_POSITIONS);
export const visibilityProbesSchema = z.object(
  Object.fromEntries(PROBE_NAMES.map((name) => [name, z.boolean()])) as Record<ProbeName, z.ZodBoolean>,
);
