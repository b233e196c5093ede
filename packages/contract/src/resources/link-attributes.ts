/** The calls of links that carry values (`link.attributes`): read and replace a row's links with their values. */
import { z } from 'zod';
import { idSchema } from '../integer-schemas.js';
import type { LinkAttributesDef, LinkDef } from './define.js';
import { fieldValueSchema } from './schemas.js';

/** A reference field whose links carry values. */
export interface AttributedLinkField {
  display: string;
  link: LinkDef & { attributes: LinkAttributesDef };
}

/** The body's list of the Save call: the verb in lower camel case (`Members` → `members`). */
export const linkListKey = (attributes: LinkAttributesDef): string => attributes.verb.charAt(0).toLowerCase() + attributes.verb.slice(1);

/** Body of `POST /api/{Family}/Save{verb}`: the row, optionally the version read, and every link with its values. */
export function linkEntriesBodySchemaOf(field: AttributedLinkField) {
  const { target, attributes } = field.link;
  const entry: Record<string, z.ZodType> = { [target]: idSchema };
  for (const [name, attribute] of Object.entries(attributes.fields)) entry[name] = attribute.required ? fieldValueSchema(attribute) : fieldValueSchema(attribute).optional();
  return z.strictObject({
    id: idSchema,
    version: idSchema.optional(),
    [linkListKey(attributes)]: z.array(z.strictObject(entry)).max(attributes.max ?? 200),
  });
}

/** One link as `GET /api/{Family}/Get{verb}` answers it: the target's id and display value, the link's values and the target's details. */
export function linkEntrySchemaOf(field: AttributedLinkField) {
  const { target, attributes } = field.link;
  const shape: Record<string, z.ZodType> = { [target]: z.number(), [field.display]: z.string().nullable() };
  for (const name of Object.keys(attributes.fields)) shape[name] = z.unknown();
  for (const name of attributes.details ?? []) shape[name] = z.string().nullable();
  return z.object(shape);
}
