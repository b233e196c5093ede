/**
 * Inputs of the fuzz suite, built with fast-check from each route's documented schema and beyond
 * it: values of the declared shape, then hostile ones in any place (wrong types, 1 MB strings, NUL
 * and control characters, unicode, right-to-left text, emoji, negative, huge and non-integer
 * numbers, deep JSON, prototype keys, SQL and script payloads), and raw bodies no schema describes.
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { JsonSchema, RouteEntry } from './support.js';

/** What one run sends, kept apart from the inject options so a failure can be explained and shrunk. */
export interface FuzzRequest {
  method: 'GET' | 'POST';
  url: string;
  /** A JSON text, or any text for raw bodies. */
  body?: string;
  contentType?: string;
}

const ONE_MEGABYTE = 'x'.repeat(1024 * 1024);
const DEEP_ARRAY: unknown = Array.from({ length: 200 }).reduce((inner: unknown) => [inner], 1 as unknown);
const DEEP_OBJECT: unknown = Array.from({ length: 200 }).reduce((inner: unknown) => ({ a: inner }), 1 as unknown);

/** Objects whose own keys are prototype keys (JSON.parse makes `__proto__` an own property, as a client could send it). */
const PROTOTYPE_OBJECTS: unknown[] = [
  JSON.parse('{"__proto__":{"polluted":"yes"}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  JSON.parse('{"prototype":{"polluted":"yes"},"toString":"x","valueOf":1,"hasOwnProperty":null}'),
];

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\r\n\t\b\f\v',
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '😀👨‍👩‍👧‍👦🏳️‍🌈',
  '\uD800',
  '\uFFFF\uFEFF\u200B',
  'Z̴̡̛͓̙͙a̵̝͗l̷̰͊g̶̱̈́o̸',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; select pg_sleep(0)',
  '%',
  '_',
  '\\',
  '%_\\%',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '%00',
  '-1',
  '0',
  '2147483648',
  '99999999999999999999999',
  '1e400',
  'NaN',
  'Infinity',
  'true',
  'null',
  '2024-02-30',
  '2024-13-01T25:61:61Z',
];

const HOSTILE_NUMBERS = [-1, 0, -0, 1.5, -2147483649, 2147483647, 2147483648, 4294967296, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MIN_VALUE, 0.1 + 0.2];

/** A value of any type, hostile to any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]]) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant(ONE_MEGABYTE) },
  { weight: 1, arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_OBJECTS) },
  { weight: 2, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) },
  { weight: 1, arbitrary: fc.array(fc.integer(), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const TYPE_OF = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** Values of a schema's shape (with its bounds and their neighbours), before any hostility. */
function shapedValue(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => fieldValue(alternative, depth)));
  switch (TYPE_OF(schema)) {
    case 'integer':
    case 'number': {
      const low = Math.max(schema.minimum ?? -1000, -(2 ** 31));
      const high = Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1);
      const within = TYPE_OF(schema) === 'integer' ? fc.integer({ min: low, max: Math.max(low, high) }) : fc.double({ min: low, max: Math.max(low, high), noNaN: true });
      return fc.oneof({ weight: 4, arbitrary: within }, { weight: 1, arbitrary: fc.constantFrom(low, high, low - 1, high + 1, (schema.maximum ?? high) + 1) });
    }
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.pattern) {
        try {
          return fc.stringMatching(new RegExp(schema.pattern));
        } catch {
          // A pattern fast-check cannot invert: fall through to plain strings.
        }
      }
      const max = Math.min(schema.maxLength ?? 30, 30);
      return fc.oneof(
        fc.string({ minLength: Math.min(schema.minLength ?? 0, max), maxLength: max }),
        fc.constantFrom('a'.repeat((schema.maxLength ?? 64) + 1), 'a'.repeat(schema.maxLength ?? 64)),
      );
    }
    case 'array': {
      if (depth > 3 || !schema.items) return fc.constant([]);
      return fc.array(fieldValue(schema.items, depth + 1), { minLength: 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    }
    case 'object':
      return objectValue(schema, depth);
  }
  return hostileValue;
}

/** A field's value: mostly of its shape, sometimes hostile. */
function fieldValue(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: shapedValue(schema, depth) }, { weight: 1, arbitrary: hostileValue });
}

/** An object of the schema's properties (required ones mostly present), sometimes with keys it does not know. */
function objectValue(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 3) return fc.constant({});
  const properties = Object.entries(schema.properties ?? {});
  const record = fc.record(Object.fromEntries(properties.map(([name, property]) => [name, fieldValue(property, depth + 1)])), { requiredKeys: [] });
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('unknown', 'id', 'version', 'pageSize', 'view', '__proto__', 'constructor'), hostileValue, { maxKeys: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_OBJECTS) },
  );
  return fc.tuple(record, extra).map(([known, more]) => {
    // Own properties copied one by one: a `__proto__` key stays a key instead of becoming the prototype.
    const out: Record<string, unknown> = {};
    for (const source of [known, more as Record<string, unknown>]) {
      for (const key of Object.keys(source)) Object.defineProperty(out, key, { value: source[key], enumerable: true, writable: true, configurable: true });
    }
    return out;
  });
}

/** Raw bodies no schema describes: broken JSON, deep nesting, huge numbers written out, other content types. */
const rawBody: fc.Arbitrary<{ body: string; contentType: string }> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    'null',
    '"text"',
    '[1,2,',
    '{"id": 1e400, "ids": [1e400]}',
    '{"id": 99999999999999999999999999999, "pageSize": -99999999999999999999}',
    '{"pageIndex": 1.0000000000000002, "pageSize": 0.5}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`,
    '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}',
    '{"a": "\\u0000", "name": "\\ud800"}',
  ).map((body) => ({ body, contentType: 'application/json' })),
  fc.tuple(fc.string({ maxLength: 50 }), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml')).map(([body, contentType]) => ({ body, contentType })),
);

/**
 * A query value is cut to this many characters: Node refuses a request line and headers over 16 KiB
 * (431, `maxHeaderSize`) before the app sees them, so a 1 MB value in a URL is a call no client can
 * make. Encoding and parsing such URLs was a tenth of the suite's time; 1 MB values still go in bodies.
 */
const MAX_QUERY_VALUE_LENGTH = 8 * 1024;

/** Query parameters as text, arrays repeated, objects as JSON (a client can send anything). */
function queryText(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
      params.append(key, text.slice(0, MAX_QUERY_VALUE_LENGTH));
    }
  }
  // URLSearchParams writes a lone surrogate as U+FFFD: a client could send its bytes, but not through this API.
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A text as one path segment; a lone surrogate cannot be encoded and is sent as its code instead. */
function pathPart(text: string): string {
  try {
    return encodeURIComponent(text).slice(0, 2000);
  } catch {
    return `%ED%A0%80${encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, ''))}`;
  }
}

/**
 * The requests fuzzing one route. `views` are the frames the route's family shows on: a family's call
 * names its page in `?view=`, and a fuzzed one stops at the frame check (403) before reaching its
 * schema and handler, so four calls in five carry one of them (the fifth a fuzzed value).
 */
export function requestsOf(route: RouteEntry, views: readonly string[] = []): fc.Arbitrary<FuzzRequest> {
  if (route.url === '/uploads/*') {
    return fc
      .tuple(fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ maxLength: 60 })), objectValue(route.query ?? { type: 'object' }, 0))
      .map(([key, query]) => ({ method: 'GET', url: `/uploads/${pathPart(key)}${queryText(query)}` }));
  }
  const fuzzedQuery = objectValue(route.query ?? { type: 'object', properties: { id: { type: 'integer' }, view: { type: 'string' } } }, 0);
  const query = (views.length === 0 ? fuzzedQuery : fc.tuple(fuzzedQuery, fc.option(fc.constantFrom(...views), { freq: 5 })).map(([values, view]) => (view === null ? values : { ...values, view }))).map(
    queryText,
  );
  if (route.method === 'GET') return query.map((text) => ({ method: 'GET', url: `${route.url}${text}` }));
  const jsonBody = fc.oneof(
    { weight: 8, arbitrary: route.body ? fieldValue(route.body, 0) : hostileValue },
    { weight: 1, arbitrary: hostileValue },
  );
  return fc.oneof(
    { weight: 9, arbitrary: fc.tuple(query, jsonBody).map(([text, body]) => ({ method: 'POST' as const, url: `${route.url}${text}`, body: JSON.stringify(body) ?? 'null', contentType: 'application/json' })) },
    { weight: 1, arbitrary: rawBody.map(({ body, contentType }) => ({ method: 'POST' as const, url: route.url, body, contentType })) },
  );
}

export function injectOptionsOf(request: FuzzRequest): InjectOptions {
  return {
    method: request.method,
    url: request.url,
    ...(request.body !== undefined ? { payload: request.body, headers: { 'content-type': request.contentType ?? 'application/json' } } : {}),
  };
}
