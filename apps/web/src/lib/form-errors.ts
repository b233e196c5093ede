import type { FormInstance } from 'antd';
import type { FieldError } from '@campus/contract';
import { RequestError } from './request';

/**
 * Puts the server's validation errors (HTTP 400, `data.errors`) on the matching form fields, the way
 * refine does; a path like "servicePhones.0" becomes the name path ['servicePhones', 0].
 * Answers whether the error carried field errors.
 */
export function applyFieldErrors(form: FormInstance, error: unknown): boolean {
  if (!(error instanceof RequestError) || error.errors.length === 0) return false;
  const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const { path, message } of error.errors as FieldError[]) {
    const entry = byField.get(path) ?? { name: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors: [] };
    entry.errors.push(message);
    byField.set(path, entry);
  }
  form.setFields([...byField.values()]);
  return true;
}
