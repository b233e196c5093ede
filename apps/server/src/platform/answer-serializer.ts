/**
 * How answers become JSON. fastify-type-provider-zod's serializer parses every answer through its
 * zod schema before `JSON.stringify`: for a Search page of 20 rows that was ≈ 0.45 ms of a request's
 * CPU (against 0.025 ms for the JSON itself), spent checking rows the engine has just built from the
 * declaration (docs/performance.md, "Cost per call"). What the schemas must still do on the way out is
 * keep undeclared keys of a plain (`z.object`) schema out of the answer, as zod strips them — so each
 * route's schema is compiled once into a projection that copies declared keys and walks only where
 * something could be dropped, without checking values. Subtrees it cannot follow without checking
 * (unions of objects, transforms, codecs) are encoded by zod as before.
 *
 * Tests run with `verify`: every answer is also encoded by zod, a mismatching answer fails as it did,
 * and so does any difference between the projection and zod's output, so a schema the projection
 * misreads is caught by the suite rather than in production.
 */
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/** A projection of a value onto a schema's declared shape; `null` when the value passes unchanged. */
type Projection = ((value: unknown) => unknown) | null;

/** Kinds whose encoded value is the value itself (JSON.stringify does the rest, as after zod). */
const PASS_THROUGH = new Set([
  'string', 'number', 'int', 'boolean', 'bigint', 'literal', 'enum', 'null', 'undefined', 'void',
  'unknown', 'any', 'date', 'nan', 'custom', 'template_literal', 'file', 'symbol',
]);

/** Kinds that wrap one inner schema and pass null or undefined through. */
const WRAPPERS = new Set(['optional', 'nullable', 'readonly', 'nonoptional', 'catch', 'default', 'prefault', 'success']);

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string } };
}

const defOf = (schema: z.ZodType) => (schema as unknown as ZodInternals)._zod.def;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Encodes with zod: for subtrees whose output depends on checking the value. */
function zodEncoded(schema: z.ZodType): (value: unknown) => unknown {
  return (value) => {
    const result = z.safeEncode(schema, value as never);
    if (result.error) throw result.error;
    return result.data;
  };
}

const compiled = new WeakMap<z.ZodType, { projection: Projection | undefined }>();

/** The projection of `schema`, compiled once per schema (recursive schemas through a late-bound holder). */
export function projectionOf(schema: z.ZodType): Projection {
  const known = compiled.get(schema);
  if (known) {
    // Still being compiled: a schema that contains itself (a tree node). Bind late, never assume identity.
    if (known.projection === undefined) return (value) => (known.projection ? known.projection(value) : value);
    return known.projection;
  }
  const holder: { projection: Projection | undefined } = { projection: undefined };
  compiled.set(schema, holder);
  holder.projection = compile(schema);
  return holder.projection;
}

function compile(schema: z.ZodType): Projection {
  const def = defOf(schema);
  if (PASS_THROUGH.has(def.type)) return null;
  if (WRAPPERS.has(def.type)) {
    const inner = projectionOf(def.innerType as z.ZodType);
    // zod's default fills in a missing value on the way out too: leave that to zod.
    if (def.type === 'default' || def.type === 'prefault' || def.type === 'catch') return zodEncoded(schema);
    return inner && ((value) => (value === null || value === undefined ? value : inner(value)));
  }
  if (def.type === 'array') {
    const element = projectionOf(def.element as z.ZodType);
    return element && ((value) => (Array.isArray(value) ? value.map(element) : value));
  }
  if (def.type === 'record') {
    const item = projectionOf(def.valueType as z.ZodType);
    return (
      item &&
      ((value) => {
        if (!isPlainObject(value)) return value;
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value)) out[key] = item(value[key]);
        return out;
      })
    );
  }
  if (def.type === 'lazy') return projectionOf((def.getter as () => z.ZodType)());
  if (def.type === 'object') return compileObject(def);
  if (def.type === 'union') {
    const options = def.options as z.ZodType[];
    return options.every((option) => projectionOf(option) === null) ? null : zodEncoded(schema);
  }
  // Transforms, pipes, codecs, intersections and anything newer: zod knows what they answer.
  return zodEncoded(schema);
}

function compileObject(def: Record<string, unknown>): Projection {
  const shape = def.shape as Record<string, z.ZodType>;
  const fields = Object.keys(shape).map((key) => [key, projectionOf(shape[key]!)] as const);
  const catchall = def.catchall as z.ZodType | undefined;
  // A loose object keeps every key; a plain one drops the undeclared; a strict one refuses them (dropped here).
  const keepsOthers = catchall !== undefined && defOf(catchall).type !== 'never';
  if (keepsOthers) {
    const walked = fields.filter(([, projection]) => projection !== null) as (readonly [string, (value: unknown) => unknown])[];
    const others = projectionOf(catchall);
    if (walked.length === 0 && others === null) return null;
    return (value) => {
      if (!isPlainObject(value)) return value;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const projection = key in shape ? fields.find(([name]) => name === key)![1] : others;
        out[key] = projection ? projection(value[key]) : value[key];
      }
      return out;
    };
  }
  const declaredOnly = (value: unknown) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, projection] of fields) {
      if (!(key in value)) continue;
      const item = value[key];
      out[key] = projection && item !== undefined ? projection(item) : item;
    }
    return out;
  };
  if (fields.some(([, projection]) => projection !== null)) return declaredOnly;
  // Values of its own kinds only (an envelope, a page's data): the value itself unless it holds an undeclared key,
  // so that the common answer is not copied row by row (the key order of its JSON is the value's).
  const declared = new Set(Object.keys(shape));
  return (value) => {
    if (!isPlainObject(value)) return value;
    for (const key in value) if (!declared.has(key)) return declaredOnly(value);
    return value;
  };
}

/** The schema a route declares for one status: a zod schema, or `{ properties }` around one (as the plugin reads it). */
function resolveSchema(schema: unknown): z.ZodType {
  const isZod = (value: unknown): value is z.ZodType => isPlainObject(value) && '_zod' in value;
  if (isZod(schema)) return schema;
  if (isPlainObject(schema) && isZod(schema.properties)) return schema.properties;
  throw new Error(`not a zod response schema: ${JSON.stringify(schema)}`);
}

/**
 * The serializer of every route's answers: the projection above, then JSON. With `verify`, zod also
 * encodes each answer: a mismatch fails as fastify-type-provider-zod's did, and a projection that
 * differs from zod's output throws naming the route.
 */
export function createAnswerSerializerCompiler({ verify }: { verify: boolean }): FastifySerializerCompiler<z.ZodType> {
  return ({ schema: declared, method, url }) => {
    const schema = resolveSchema(declared);
    const projection = projectionOf(schema);
    const serialize = (data: unknown) => JSON.stringify(projection ? projection(data) : data);
    if (!verify) return serialize;
    return (data: unknown) => {
      const checked = z.safeEncode(schema, data as never);
      if (checked.error) throw new ResponseSerializationError(method, url, { cause: checked.error });
      const json = serialize(data);
      if (!isDeepStrictEqual(JSON.parse(json), JSON.parse(JSON.stringify(checked.data)))) {
        throw new Error(`the answer projection of ${method} ${url} differs from zod's encoding`);
      }
      return json;
    };
  };
}
