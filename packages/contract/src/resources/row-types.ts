/**
 * Row types inferred from a declaration, so family code reads `row.state` as the enum's values
 * instead of `unknown`. A declaration typed only as `ResourceDef` (its field names unknown) gets
 * plain records: the engine's own code stays generic over every family.
 */
import type { FieldDef, ResourceDef } from './define.js';

type Row = Record<string, unknown>;

type EnumValueOf<F> = F extends { options: readonly (infer O)[] } ? (O extends { value: infer V } ? V : never) : never;
/** A reference by `key` holds the target's key text (a product model's code); otherwise the target's id. */
type ReferenceIdOf<F> = F extends { key: string } ? string : number;
type ListIfMultiple<F, One> = F extends { multiple: true } ? One[] : One;

/** The wire value of one field, as Search and Get answer it and as a validated write carries it. */
export type WireValueOf<F extends FieldDef> = F extends { kind: 'number' }
  ? ListIfMultiple<F, number>
  : F extends { kind: 'money' }
    ? number
    : F extends { kind: 'bool' }
      ? boolean
      : F extends { kind: 'enum' }
        ? EnumValueOf<F>
        : F extends { kind: 'reference' }
          ? ListIfMultiple<F, ReferenceIdOf<F>>
          : F extends { kind: 'lines'; fields: infer L extends Record<string, FieldDef> }
            ? LineRowOf<L>[]
            : F extends { kind: 'json' }
              ? unknown
              : string; // text, textarea, phone, region, places, image, file, date, datetime, password

/** Only a required field is never null. */
type NullableUnlessRequired<F, V> = F extends { required: true } ? V : V | null;

/** Fields that are never answered: passwords are write-only. */
type AnsweredKeys<Fields> = { [K in keyof Fields]: Fields[K] extends { kind: 'password' } ? never : K }[keyof Fields];
/** Fields kept outside the family's own table: multiple references (link tables) and lines. */
type ColumnKeys<Fields> = {
  [K in keyof Fields]: Fields[K] extends { kind: 'password' | 'lines' } ? never : Fields[K] extends { multiple: true; kind: 'reference' } ? never : K;
}[keyof Fields];

type ValuesOf<Fields extends Record<string, FieldDef>, Keys extends keyof Fields> = {
  -readonly [K in Keys]: NullableUnlessRequired<Fields[K], WireValueOf<Fields[K]>>;
};

/** Each reference's display value: `${field}Label` (a list for a multiple reference). */
type LabelsOf<Fields> = {
  -readonly [K in keyof Fields as Fields[K] extends { kind: 'reference' } ? `${K & string}Label` : never]: Fields[K] extends { multiple: true } ? string[] : string | null;
};

/** One line of a `lines` field as Get answers it: its fields and reference labels. */
export type LineRowOf<Fields extends Record<string, FieldDef>> = ValuesOf<Fields, AnsweredKeys<Fields>> & LabelsOf<Fields> & { id?: number };

/** Whether the declaration's field names are known (a `defineResource` literal) rather than `string`. */
type HasKnownFields<D extends ResourceDef> = string extends keyof D['fields'] ? false : true;

/**
 * A row of family D as Search and Get answer it: every field but passwords (nullable unless
 * required), `${reference}Label`s, lines, and the stamps. Money is absent where hideAmountColumns holds.
 */
export type RowOf<D extends ResourceDef> =
  HasKnownFields<D> extends true
    ? ValuesOf<D['fields'], AnsweredKeys<D['fields']>> & LabelsOf<D['fields']> & { id: number; version: number; createdAt: string; updatedAt: string }
    : Row;

/**
 * A row of family D as its table stores it (what hooks get as `existing`, rows to delete, the row of a
 * transition): timestamps are Dates, no labels, links or lines; undeclared columns (hashes) may follow.
 */
export type StoredRowOf<D extends ResourceDef> =
  HasKnownFields<D> extends true
    ? {
        -readonly [K in ColumnKeys<D['fields']>]: NullableUnlessRequired<D['fields'][K], D['fields'][K] extends { kind: 'datetime' } ? Date : WireValueOf<D['fields'][K]>>;
      } & { id: number; version: number; createdAt: Date; updatedAt: Date } & Row
    : Row;

/**
 * The validated values of an Add or Update of family D: any of its fields, null where cleared. Hooks
 * may add columns the declaration leaves out of the form (a child account's type).
 */
export type WriteValuesOf<D extends ResourceDef> = HasKnownFields<D> extends true ? Partial<ValuesOf<D['fields'], keyof D['fields']>> & Row : Row;
