/**
 * Rich text (`textarea` with `rich`): the HTML an editor wrote, cut down to an allow-list before it is
 * stored, so the app and the console's preview can render it as HTML. Allow-listing rather than
 * blocking: whatever sanitize-html does not know (script, style, iframe, event handlers, javascript:
 * or data: addresses, SVG) never reaches a parent's phone.
 */
import type { ResourceDef } from '@campus/contract';
import sanitizeHtml from 'sanitize-html';
import type { Row } from './context.js';

const RICH_TEXT_POLICY: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h1', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'blockquote', 'ul', 'ol', 'li', 'a', 'img', 'hr', 'code', 'pre', 'span'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  // Images only from http(s) or our own uploads (a relative /uploads/ path): no data: URLs.
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link leaving the app opens a new page that cannot reach back into the app (reverse tabnabbing).
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** The HTML kept of an editor's output: allow-listed tags and attributes only, no script in any form. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICH_TEXT_POLICY).trim();
}

/** A write's values with each rich-text field sanitised; other values untouched. */
export function sanitizeRichFields(def: ResourceDef, values: Row): Row {
  let out = values;
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.kind !== 'textarea' || !field.rich || typeof values[name] !== 'string') continue;
    out = { ...out, [name]: sanitizeRichText(values[name] as string) };
  }
  return out;
}
