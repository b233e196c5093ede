/**
 * A platform setting shown as a card above a family's page (the fever threshold, the terminal
 * settings, the two-factor policy): its value's fields, who reads it (holders of the page) and who
 * changes it (company users holding one button of the page). From the declaration come its two calls
 * (Get and Save, checked, logged before → after in the operation log) and its card on the web.
 */
import { z } from 'zod';
import type { Label } from '../label.js';
import type { ButtonValue } from '../menu.js';

/** One input of a setting's card. */
export type SettingFieldDef =
  | {
      kind: 'number';
      label: Label;
      min: number;
      max: number;
      /** Digits after the point: values are rounded to them on save. */
      precision: number;
      step?: number;
      /** Written after the input (℃, seconds). */
      unit?: Label;
      /** Whole numbers only. */
      integer?: boolean;
    }
  | { kind: 'bool'; label: Label };

export interface SettingDef {
  /** Names the setting: its query key on the web and its OpenAPI operation. */
  name: string;
  /** The family whose page shows the card: its OpenAPI tag and the family its changes are logged under. */
  family: string;
  /** The operation log's action for a change. */
  action: string;
  /** The page showing it: holders read it. */
  frame: string;
  /** The page's button a company user needs to change it (an agent or a school account never may: it is platform-wide). */
  button: ButtonValue;
  /** GET answering the value, POST saving it (the paths of SEED-SPEC or of the issue that added it). */
  paths: { get: string; save: string };
  fields: Readonly<Record<string, SettingFieldDef>>;
  /** Said under the fields: what a change does and from when. */
  hint: Label;
  /** Shown once a change is saved. */
  saved: Label;
  /** OpenAPI summaries of the two calls. */
  summaries: { get: string; save: string };
  /** Said in the Save call's OpenAPI description (a side effect worth knowing). */
  description?: string;
}

/** The value of a setting: one entry per declared field. */
export type SettingValue = Record<string, number | boolean>;

/** The zod schema of a setting's value (Save's body, Get's answer), built from its fields' bounds. */
export function settingSchema(def: SettingDef): z.ZodObject<Record<string, z.ZodNumber | z.ZodBoolean>> {
  return z.object(
    Object.fromEntries(
      Object.entries(def.fields).map(([name, field]) => {
        if (field.kind === 'bool') return [name, z.boolean()];
        const number = z.number().min(field.min).max(field.max);
        return [name, field.integer ? number.int() : number];
      }),
    ),
  );
}

/** A setting's value with each number rounded to its declared precision, as it is stored. */
export function roundSettingValue(def: SettingDef, value: SettingValue): SettingValue {
  return Object.fromEntries(
    Object.entries(value).map(([name, raw]) => {
      const field = def.fields[name];
      if (field?.kind !== 'number' || typeof raw !== 'number') return [name, raw];
      const factor = 10 ** field.precision;
      return [name, Math.round(raw * factor) / factor];
    }),
  );
}

/** Declares a setting (module doc). */
export function defineSetting<const D extends SettingDef>(def: D): D {
  return def;
}
