import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAnswerSerializerCompiler, projectionOf } from '../../src/platform/answer-serializer.js';

const compile = (schema: z.ZodType, verify = false) => createAnswerSerializerCompiler({ verify })({ schema, method: 'GET', url: '/x', httpStatus: '200' });

describe('answer serializer', () => {
  const row = z.looseObject({ id: z.number(), name: z.string().nullable() });
  const answer = z.object({ code: z.literal(200), data: z.object({ items: z.array(row), total: z.number() }) });

  it('passes rows of loose schemas through without walking them', () => {
    expect(projectionOf(row)).toBeNull();
    expect(projectionOf(z.array(row))).toBeNull();
  });

  it('drops keys a plain object does not declare, as zod does, and keeps those of loose rows', () => {
    const data = { code: 200, secret: 'x', data: { items: [{ id: 1, name: null, nameLabel: 'a' }], total: 1, extra: true } };
    const expected = { code: 200, data: { items: [{ id: 1, name: null, nameLabel: 'a' }], total: 1 } };
    expect(JSON.parse(compile(answer)(data))).toEqual(expected);
    expect(JSON.parse(compile(answer, true)(data))).toEqual(expected);
  });

  it('answers a plain object of its own keys as it is, and a copy without the others', () => {
    const total = z.object({ total: z.number(), exact: z.boolean() });
    const project = projectionOf(total)!;
    const plain = { total: 3, exact: true };
    expect(project(plain)).toBe(plain);
    expect(project({ exact: false, total: 4, more: 1 })).toEqual({ exact: false, total: 4 });
  });

  it('does not check values unless verifying', () => {
    const data = { code: 200, data: { items: [{ id: 'one' }], total: 1 } };
    expect(JSON.parse(compile(answer)(data))).toEqual(data);
    expect(() => compile(answer, true)(data)).toThrow(/doesn't match the schema/);
  });

  it('leaves unions of objects and transforms to zod', () => {
    const union = z.object({ v: z.union([z.object({ a: z.number() }), z.object({ b: z.string() })]) });
    expect(JSON.parse(compile(union, true)({ v: { a: 1, c: 2 } }))).toEqual({ v: { a: 1 } });
  });

  it('follows a schema that contains itself', () => {
    const node: z.ZodType = z.object({
      id: z.number(),
      get children(): z.ZodOptional<z.ZodArray<z.ZodType>> {
        return z.array(node).optional();
      },
    });
    const data = { id: 1, drop: 1, children: [{ id: 2, drop: 2, children: [] }] };
    expect(JSON.parse(compile(node, true)(data))).toEqual({ id: 1, children: [{ id: 2, children: [] }] });
  });
});
