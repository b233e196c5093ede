/**
 * Integers as the database holds them. Ids, references and counts live in 32-bit `integer` columns:
 * a larger value sent to PostgreSQL fails the whole statement (a 500, or an Export cut after its 200),
 * so every integer the API accepts is bounded by its column here, where the schemas are built.
 */
import { z } from 'zod';

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** A row id or a reference by id (`serial` / `integer` columns), from a query string or a JSON body. */
export const idSchema = z.coerce.number().int().positive().max(INT32_MAX);

/** A row id in a JSON body that must be a number, not a numeric string. */
export const strictIdSchema = z.number().int().positive().max(INT32_MAX);
