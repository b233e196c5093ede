/**
 * Integers as the database holds them. Ids, references and counts live in 32-bit `integer` columns:
 * a larger value sent to PostgreSQL fails the whole statement (a 500, or an Export cut after its 200),
 * so every integer the API accepts is bounded by its column (integer-schemas.ts builds the schemas).
 */

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
