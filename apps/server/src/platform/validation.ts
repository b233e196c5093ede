/**
 * The one validator every route's schemas run through: fastify-type-provider-zod's, behind a check
 * no schema has to repeat. PostgreSQL text cannot hold a NUL character (`\u0000`): a value carrying
 * one failed the statement with a 500, wherever it was sent (a filter, a profile, a key of a body).
 * Every text the API accepts passes here, so it is refused once, as a field error naming where it was.
 */
import { builtOnce, messageText } from '@campus/contract';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

const NUL = '\u0000';

/** Paths of the strings (values and keys) holding a NUL, walked without recursion so deep input cannot overflow the stack. */
export function pathsWithNul(input: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) found.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: [...path, index] }));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(NUL)) found.push([...path, key]);
        else pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return found;
}

/** Refuses any NUL before the route's own schema runs (a pipe stops at the first schema's issues). */
const refusingNul = builtOnce(
  (schema: z.ZodType): z.ZodType =>
    z
      .unknown()
      .superRefine((input, ctx) => {
        for (const path of pathsWithNul(input)) ctx.addIssue({ code: 'custom', path, message: messageText('validation.noNul'), input });
      })
      .pipe(schema),
);

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => zodValidatorCompiler({ ...route, schema: refusingNul(route.schema) });
