/** Schemas of ids and references, bounded by their 32-bit columns (see integers.ts). */
import { z } from 'zod';
import { INT32_MAX } from './integers.js';

/** A row id or a reference by id (`serial` / `integer` columns), from a query string or a JSON body. */
export const idSchema = z.coerce.number().int().positive().max(INT32_MAX);

/** A row id in a JSON body that must be a number, not a numeric string. */
export const strictIdSchema = z.number().int().positive().max(INT32_MAX);
