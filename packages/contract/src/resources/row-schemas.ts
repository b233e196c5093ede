/**
 * zod schemas of the rows a family answers (Search, Get, Tree), derived from its declaration: the
 * server declares them as response schemas, so the OpenAPI document describes every answer.
 */
import { z } from 'zod';
import type { FieldDef, ResourceDef } from './define.js';
import { builtOnce } from './built-once.js';

/**
 * An enum value on the wire. Documented with its options but checked only for its type: a stored row
 * whose value left the options (an operation log naming a family since renamed) must stay readable.
 */
function enumWireSchema(options: readonly { value: number | string }[]): z.ZodType {
  const values = options.map((option) => option.value);
  const base = values.every((value) => typeof value === 'number') ? z.number() : z.union([z.string(), z.number()]);
  return base.meta({ enum: values });
}

/** The value of one field as rows answer it (never null here; rowShapeOf adds that). */
export const fieldWireSchema = /* @__PURE__ */ builtOnce((field: FieldDef): z.ZodType => {
  switch (field.kind) {
    case 'number':
      return field.multiple ? z.array(z.number()) : z.number();
    case 'money':
      return z.number();
    case 'bool':
      return z.boolean();
    case 'enum':
      return enumWireSchema(field.options);
    case 'reference': {
      const one = field.key ? z.string() : z.number();
      return field.multiple ? z.array(one) : one;
    }
    case 'lines':
      return z.array(z.looseObject(rowShapeOf(field.fields)));
    case 'json':
      return z.unknown();
    default:
      return z.string();
  }
});

/**
 * The declared fields of a row and each reference's `${field}Label`. Every one may be null (not
 * required, or stored before it was) and absent (money hidden by hideAmountColumns, a list row).
 */
function rowShapeOf(fields: Record<string, FieldDef>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === 'password') continue; // write-only: never answered
    // Unknown JSON holds null already; a union with null would only say "anything, or null".
    shape[name] = (field.kind === 'json' ? fieldWireSchema(field) : fieldWireSchema(field).nullable()).optional();
    if (field.kind === 'reference') shape[`${name}Label`] = (field.multiple ? z.array(z.string().nullable()) : z.string()).nullable().optional();
  }
  return shape;
}

/** The stamps every row carries; log rows are never updated, so they have no version or updatedAt. */
function stampShapeOf(def: ResourceDef): Record<string, z.ZodType> {
  const logStamps = { id: z.number(), createdAt: z.string() };
  return def.mode === 'log' ? logStamps : { ...logStamps, version: z.number(), updatedAt: z.string() };
}

/**
 * One row as Search and Get answer it. Loose: a family's afterRead may add values the declaration
 * does not list, and a response schema must never strip what the engine answers.
 */
export const rowSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  return z.looseObject({ ...rowShapeOf(def.fields), ...stampShapeOf(def) });
});

/**
 * A node of `GET /api/{Family}/Tree`: a row and its children, ordered among siblings. Registered by
 * id (`EducationDirectoryTreeNode`), once per family: a recursive schema can only be written into
 * OpenAPI as a named component that its children point back at.
 */
export const treeNodeSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  const node: z.ZodType = z
    .looseObject({
      ...rowShapeOf(def.fields),
      ...stampShapeOf(def),
      get children(): z.ZodOptional<z.ZodArray<z.ZodType>> {
        return z.array(node).optional();
      },
    })
    .meta({ id: `${def.name}TreeNode` });
  return node;
});
