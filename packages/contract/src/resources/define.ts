/**
 * The resource declaration: one per family. The server builds its table, routes and export from it;
 * the web builds its filter bar, table, form and export from it.
 */
import type { ButtonValue } from '../menu.js';
import type { UserType } from '../users.js';

export interface Label {
  zh: string;
  en: string;
}

export interface EnumOption {
  value: number | string;
  zh: string;
  en: string;
  /** antd tag colour for the table cell. */
  color?: string;
}

/** How a field filters a Search: equals, contains (ILIKE %x%), prefix (ILIKE x%), range (from/to), in (list). */
export type FilterMode = 'equals' | 'contains' | 'prefix' | 'range' | 'in';

interface FieldCommon {
  label: Label;
  /** Required on Add (and may not be cleared on Update). */
  required?: boolean;
  filter?: FilterMode;
  /** The filter value meaning "any" (the seed's -1 / 0 search defaults); it is never applied. */
  filterAll?: string | number;
  /** Shown as a table column (default true). */
  list?: boolean;
  /** Shown in the add/edit form (default true unless readOnly). */
  form?: boolean;
  /** Written to exports (default: same as list). */
  exported?: boolean;
  sortable?: boolean;
  /** Set by the server only; never accepted from a client. */
  readOnly?: boolean;
  unique?: boolean;
  /** Value the form starts with on Add. */
  defaultValue?: string | number | boolean;
  help?: Label;
  /** Column width in px. */
  width?: number;
}

export type FieldDef = FieldCommon &
  (
    | { kind: 'text'; max?: number; min?: number; pattern?: string; patternMessage?: Label }
    | { kind: 'textarea'; max?: number }
    | { kind: 'phone' }
    | { kind: 'number'; min?: number; max?: number; integer?: boolean }
    /** Integer cents in storage and on the wire; the web shows yuan with two decimals. */
    | { kind: 'money'; min?: number; max?: number }
    | { kind: 'bool'; trueLabel?: Label; falseLabel?: Label }
    | { kind: 'enum'; options: readonly EnumOption[] }
    | { kind: 'date' }
    | { kind: 'datetime' }
    /**
     * A row of another family, by id (or by its `key` field, e.g. a device class code);
     * `display` names that family's field shown instead of the value. `optionsFilter` narrows the
     * picker to rows matching those filters of the target family (e.g. accounts of type agent).
     * `multiple`: several rows by id, kept by the family's hooks in a link table (no column); rows
     * carry the ids as the field's value and their display values as `${field}Label` (a list).
     */
    | {
        kind: 'reference';
        family: string;
        display: string;
        key?: string;
        optionsFilter?: Readonly<Record<string, string | number | boolean>>;
        multiple?: boolean;
      }
    | { kind: 'image' }
    | { kind: 'file' }
    /** One part of a province/city/area address; the three parts are joined for display. */
    | { kind: 'region'; part: RegionPart }
    /**
     * Several provinces (or cities) as one comma-joined text, e.g. the provinces a sales area covers;
     * cities must lie in the provinces of the family's province-level list.
     */
    | { kind: 'places'; level: 'province' | 'city'; max?: number }
    /** Write-only: the client sends the MD5 hex, the server stores a slow salted hash. */
    | { kind: 'password' }
  );

export type FieldKind = FieldDef['kind'];

/** The three parts of a Chinese address, from the widest. */
export type RegionPart = 'province' | 'city' | 'area';

/**
 * How a row reaches a school id, so the caller's data scope applies:
 * `self` — the row is a school; `school` — the row carries a school id column;
 * `global` — catalogue rows everyone with the frame may read (writes still need the button);
 * `account` — the row is an account of one of `types`: company staff reach all of them, an agent its
 * own child accounts and the external users bound to its schools, a child account those external
 * users, everyone else none.
 */
export type ScopeDef =
  | { via: 'self' }
  | { via: 'school'; field: string }
  | { via: 'global' }
  | { via: 'account'; types: readonly UserType[] };

/** A boolean (or enum) field switched by one button from the table row. */
export interface ToggleDef {
  field: string;
  button: ButtonValue;
}

/** A named row action: POST /api/{Family}/{verb} with `{ id, ...fields }`. */
export interface ActionDef {
  verb: string;
  button: ButtonValue;
  label: Label;
  /** Fields the action's form asks for (declared like resource fields). */
  fields?: Record<string, FieldDef>;
  /** Ask for confirmation before running. */
  confirm?: Label;
}

/** One page of a family: families shown on several pages fix some filters per page. */
export interface ViewDef {
  frame: string;
  fixed?: Record<string, string | number | boolean>;
}

export interface ResourceDef {
  /** Family name as in SEED-SPEC section 7; the API path is /api/{name}/... */
  name: string;
  label: Label;
  /** SQL table name. */
  table: string;
  /** Pages showing this family (usually one). */
  views: readonly ViewDef[];
  fields: Record<string, FieldDef>;
  scope: ScopeDef;
  /** Field shown when a row is named (delete confirmation, references). */
  titleField: string;
  searchDefaults?: Record<string, string | number | boolean>;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  toggles?: readonly ToggleDef[];
  actions?: readonly ActionDef[];
  /** Extra composite indexes (field names) beyond the filter indexes the engine derives. */
  indexes?: readonly (readonly string[])[];
}

/** Declares a family; the identity function keeps literal types and reads well at the call site. */
export function defineResource<const T extends ResourceDef>(def: T): T {
  return def;
}

/** Converts a camelCase field name to its snake_case column name. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export const isListed = (f: FieldDef): boolean => f.list !== false && f.kind !== 'password';
/** A field kept outside the family's own table (a multiple reference): never a column. */
export const isLinkField = (f: FieldDef): boolean => f.kind === 'reference' && f.multiple === true;
export const isInForm = (f: FieldDef): boolean => f.form ?? !f.readOnly;
export const isExported = (f: FieldDef): boolean => (f.exported ?? isListed(f)) && f.kind !== 'password';

/** The verb of a toggle call: `state` → `UpdateState` (POST /api/{Family}/UpdateState). */
export function toggleVerb(field: string): string {
  return `Update${field.charAt(0).toUpperCase()}${field.slice(1)}`;
}

/** The path of a family call. */
export function resourcePath(family: string, verb: string): string {
  return `/api/${family}/${verb}`;
}
