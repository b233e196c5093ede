/** zod schemas derived from a resource declaration: Search, Add, Update, Export. */
import { z } from 'zod';
import { mediaUrlSchema } from '../api/file-schemas.js';
import { ADDRESS_PLACEHOLDERS, MAX_EXPORT_COUNT, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../constants.js';
import { isInForm, type FieldDef, type ResourceDef, type StateValue, type TransitionDef } from './define.js';
import { messageText } from '../messages.js';
import { phoneSchema } from '../phones.js';
import { idSchema } from '../integer-schemas.js';
import { INT32_MAX, INT32_MIN } from '../integers.js';
import { builtOnce } from './built-once.js';

export const md5HexSchema = z.string().regex(/^[a-f0-9]{32}$/i, messageText('validation.md5'));

/** Treats '', null and undefined as "no value" so optional fields and filters can be cleared. */
/**
 * ISO 8601 and JavaScript know a year 0000 (1 BC); PostgreSQL does not (1 BC follows AD 1) and
 * answered '0000-02-29' in a date filter with a 500 (found by the fuzz suite).
 */
const isNotYearZero = (value: string) => !value.startsWith('0000');

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** A typed list of places in one canonical form: split on any comma or space, blanks and repeats dropped. */
export function joinPlaces(text: string): string {
  return [...new Set(text.split(/[,，、\s]+/).filter(Boolean))].join(',');
}

/** The `{name}`s of a text, in order of first appearance. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([^{}\s]{1,40})\}/g)].map((match) => match[1]!))];
}

/** The `{name}`s of a text that are not among the allowed ones. */
export function unknownPlaceholders(text: string, allowed: readonly string[]): string[] {
  return placeholdersIn(text).filter((name) => !allowed.includes(name));
}

/** A text with each placeholder replaced by its sample: what a template's preview shows. */
export function fillPlaceholders(text: string, placeholders: readonly { name: string; sample: string }[]): string {
  const samples = new Map(placeholders.map((placeholder) => [placeholder.name, placeholder.sample]));
  return text.replace(/\{([^{}\s]{1,40})\}/g, (whole, name: string) => samples.get(name) ?? whole);
}

/** The schema of one field's value as written by a client (Add / Update). */
export const fieldValueSchema = /* @__PURE__ */ builtOnce((field: FieldDef): z.ZodType => {
  switch (field.kind) {
    case 'text': {
      let s = z.string().trim();
      if (field.min !== undefined) s = s.min(field.min);
      s = s.max(field.max ?? 200);
      if (field.pattern) s = s.regex(new RegExp(field.pattern), field.patternMessage ? messageText('validation.pattern', { text: field.patternMessage }) : messageText('validation.format'));
      return s;
    }
    case 'textarea': {
      const text = z.string().max(field.max ?? 2000);
      const allowed = field.placeholders?.map((placeholder) => placeholder.name);
      if (!allowed) return text;
      return text.superRefine((value, context) => {
        const unknown = unknownPlaceholders(value, allowed);
        if (unknown.length > 0) context.addIssue({ code: 'custom', message: messageText('validation.unknownPlaceholder', { names: unknown, allowed }) });
      });
    }
    case 'phone':
      return phoneSchema(field.phoneKind);
    case 'number': {
      // Whole numbers are stored in `integer` columns: undeclared bounds are the column's.
      const isInteger = field.integer !== false;
      let s = isInteger ? z.coerce.number().int() : z.coerce.number();
      if (field.min !== undefined || isInteger) s = s.min(field.min ?? INT32_MIN);
      if (field.max !== undefined || isInteger) s = s.max(field.max ?? INT32_MAX);
      return field.multiple ? z.array(s).max(500) : s;
    }
    case 'money':
      return z.coerce
        .number()
        .int(messageText('validation.moneyInCents'))
        .min(field.min ?? 0)
        .max(field.max ?? 1_000_000_000);
    case 'bool':
      return z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
    case 'enum': {
      const values = field.options.map((o) => o.value);
      return z.union([z.coerce.number(), z.string()]).refine((v) => values.includes(v), {
        message: messageText('validation.oneOf', { values: values.map(String) }),
      });
    }
    case 'date':
      return z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, messageText('validation.date'))
        // 2026-02-30 matches the pattern; the database would refuse it with a 500.
        .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(Date.parse(v)).toISOString().startsWith(v), messageText('validation.date'))
        .refine(isNotYearZero, messageText('validation.date'));
    case 'datetime':
      return z.iso.datetime({ offset: true }).refine(isNotYearZero, messageText('validation.datetime'));
    case 'reference': {
      const one = field.key ? z.string().trim().min(1).max(64) : idSchema;
      return field.multiple ? z.array(one).max(500) : one;
    }
    case 'image':
    case 'file':
      return mediaUrlSchema;
    case 'region':
      return z.string().trim().max(50);
    case 'places':
      return z
        .string()
        .max(field.max ?? 1000)
        .transform(joinPlaces);
    case 'password':
      return field.sealed ? z.string().min(1).max(128) : md5HexSchema;
    case 'lines': {
      const line: Record<string, z.ZodType> = {};
      for (const [name, f] of Object.entries(field.fields)) {
        // A form sends back the lines it read: computed values (amounts, prices) are dropped, never stored.
        if (f.readOnly) {
          line[name] = z.unknown().optional().transform(() => undefined);
          continue;
        }
        const value = fieldValueSchema(f);
        line[name] = f.required ? value : z.preprocess(blankToUndefined, value.optional());
      }
      return z
        .array(z.strictObject(line))
        .min(field.min ?? 0)
        .max(field.max ?? 200);
    }
    case 'json':
      return z.unknown();
  }
});

/** Fields Add and Update accept: never read-only or computed ones, nor a workflow's state (only transitions move it). */
function formFields(def: ResourceDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([name, f]) => isInForm(f) && !f.readOnly && !f.computed && name !== def.workflow?.field);
}

/** Body of POST /api/{Family}/Add. */
export const addSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of formFields(def)) {
    const value = fieldValueSchema(field);
    shape[name] = field.required ? value : z.preprocess(blankToUndefined, value.optional());
  }
  return z.strictObject(shape);
});

/** Body of POST /api/{Family}/Update: id and version, plus the fields that change. */
export const updateSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  const shape: Record<string, z.ZodType> = {
    id: idSchema,
    version: idSchema,
  };
  for (const [name, field] of formFields(def)) {
    const value = fieldValueSchema(field);
    // A password left empty on Update keeps the stored one; other optional fields may be cleared (null).
    shape[name] =
      field.required || field.kind === 'password'
        ? z.preprocess(blankToUndefined, value.optional())
        : z.preprocess((v) => (v === '' ? null : v), value.nullable().optional());
  }
  return z.strictObject(shape);
});

function isPlaceholder(field: FieldDef, v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  // Only a text, number or boolean can be a placeholder: an object (`{"toString": 1}`) has no text to compare, and the schema refuses it.
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return false;
  if (field.filterAll !== undefined && String(v) === String(field.filterAll)) return true;
  return field.kind === 'region' && (ADDRESS_PLACEHOLDERS as readonly string[]).includes(String(v));
}

/** Filter value schema: "any" values (placeholders, the seed's -1) become undefined and are not applied. */
function filterSchema(field: FieldDef, value: z.ZodType): z.ZodType {
  return z.preprocess((v) => (isPlaceholder(field, v) ? undefined : v), value.optional());
}

function filterValueSchema(field: FieldDef): z.ZodType {
  switch (field.kind) {
    case 'text':
    case 'textarea':
    case 'phone':
    case 'region':
    case 'places':
    case 'image':
    case 'file':
      return z.string().trim().max(200);
    case 'reference':
      // A multiple reference filters by one of its rows: "parents of this student".
      return fieldValueSchema({ ...field, multiple: false });
    default:
      return fieldValueSchema(field);
  }
}

/** The filter keys a declaration accepts: `name`, or `nameFrom` / `nameTo` for ranges. */
export function filterKeysOf(def: ResourceDef): string[] {
  return Object.entries(def.fields).flatMap(([name, f]) =>
    !f.filter ? [] : f.filter === 'range' ? [`${name}From`, `${name}To`] : [name],
  );
}

/** The zod shape of a declaration's filters (Search bodies, Export queries, report filters). */
export function filterShapeOf(def: Pick<ResourceDef, 'fields'>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    if (!field.filter) continue;
    const value = filterValueSchema(field);
    if (field.filter === 'range') {
      shape[`${name}From`] = filterSchema(field, value);
      shape[`${name}To`] = filterSchema(field, value);
    } else if (field.filter === 'in') {
      shape[name] = z.preprocess(
        (v) => (isPlaceholder(field, v) ? undefined : typeof v === 'string' ? v.split(',') : v),
        z.array(value).max(500).optional(),
      );
    } else {
      shape[name] = filterSchema(field, value);
    }
  }
  return shape;
}

function sortShape(def: ResourceDef) {
  const sortable = Object.entries(def.fields)
    .filter(([, f]) => f.sortable)
    .map(([name]) => name);
  return {
    sortField: z.enum(['id', 'createdAt', 'updatedAt', ...sortable]).optional(),
    sortOrder: z.enum(['asc', 'desc']).optional(),
  };
}

/** Body of POST /api/{Family}/Search. */
export const searchSchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  return z.object({
    pageIndex: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    ...sortShape(def),
    ...filterShapeOf(def),
  });
});

/** Query of GET /api/{Family}/Export: the Search filters plus maxCount. */
export const exportQuerySchemaOf = /* @__PURE__ */ builtOnce((def: ResourceDef) => {
  return z.object({
    maxCount: z.coerce.number().int().min(1).max(MAX_EXPORT_COUNT).default(MAX_EXPORT_COUNT),
    view: z.string().optional(),
    lang: z.enum(['zh', 'en']).optional(),
    ...sortShape(def),
    ...filterShapeOf(def),
  });
});

/** Query every family call accepts: the page (view) it is made through, for families on several pages. */
export const viewQuerySchema = z.object({ view: z.string().max(64).optional() });

/** Query of the calls about one row (GET /api/{Family}/Get, History): the row and the page. */
export const idQuerySchema = viewQuerySchema.extend({ id: idSchema });

/** Body of a toggle call POST /api/{Family}/Update{Field}. */
export const toggleBodySchema = z.object({
  ids: z.array(idSchema).min(1).max(1000),
  value: z.union([z.boolean(), z.number(), z.string()]),
});

/** Query of GET /api/{Family}/Options: id and display value of rows in scope, for reference pickers. */
export const optionsQuerySchema = z.object({
  keyword: z.string().trim().max(50).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Restrict to one school (class pickers of a student form). */
  schoolId: idSchema.optional(),
  /** Answer this unique field as the value instead of the id (references by key, e.g. a model code). */
  valueField: z.string().min(1).max(64).optional(),
});
export interface ReferenceOption {
  value: number | string;
  label: string;
}

export const idListSchema = z.array(idSchema).min(1).max(1000);

/**
 * Answer of Search: `hasMore` says whether a next page exists. `total` is exact up to the cap, and
 * `totalIsCapped` says when it is a floor; `totalIsEstimate` when it is the database's estimate of
 * a large result instead of a count (shown as "about N").
 */
export const searchAnswerSchema = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  totalIsCapped: z.boolean(),
  totalIsEstimate: z.boolean(),
  hasMore: z.boolean(),
});
export type SearchAnswer<T = Record<string, unknown>> = { items: T[]; total: number; totalIsCapped: boolean; totalIsEstimate: boolean; hasMore: boolean };

/**
 * Body of a workflow transition POST /api/{Family}/{verb}: the row, optionally the version the caller
 * read (a stale one answers 409), the transition's fields and, for `reauth`, the refund password's MD5.
 */
export function transitionBodySchemaOf(transition: TransitionDef) {
  const shape: Record<string, z.ZodType> = {
    id: idSchema,
    version: idSchema.optional(),
  };
  for (const [name, field] of Object.entries(transition.fields ?? {})) {
    const value = fieldValueSchema(field);
    // A blank required field (a remark of '') is missing: a transition's fields are its reason.
    shape[name] = z.preprocess(blankToUndefined, field.required ? value : value.optional());
  }
  if (transition.reauth) shape.reauthPassword = md5HexSchema;
  return z.strictObject(shape);
}

/** The verb of a transition run on several rows (`TransitionDef.batch`): `BatchSend`. */
export const batchVerbOf = (transition: TransitionDef): string => `Batch${transition.verb}`;

/** Largest batch a batch transition takes: a print run's worth of orders, one transaction. */
export const MAX_BATCH_TRANSITION_ROWS = 200;

/** Body of a batch transition: the rows, and the transition's fields given once for all of them. */
export function batchTransitionBodySchemaOf(transition: TransitionDef) {
  const shape: Record<string, z.ZodType> = { ids: z.array(idSchema).min(1).max(MAX_BATCH_TRANSITION_ROWS) };
  for (const [name, field] of Object.entries(transition.fields ?? {})) {
    const value = fieldValueSchema(field);
    shape[name] = z.preprocess(blankToUndefined, field.required ? value : value.optional());
  }
  return z.strictObject(shape);
}

/** Answer of a transition: the row's new version and state. */
export interface TransitionAnswer {
  id: number;
  version: number;
  state: StateValue;
}

/** One step of a row's state history (GET /api/{Family}/History?id=), oldest first. */
export interface StateHistoryEntry {
  at: string;
  userId: number | null;
  userName: string | null;
  /** null for the row's first recorded state. */
  from: StateValue | null;
  to: StateValue;
  verb: string;
  remark: string | null;
}
