import type { FormInstance } from 'antd';
import type { FieldError } from '@campus/contract';
import { RequestError } from './request';

/**
 * Puts the server's validation errors (HTTP 400, `data.errors`) on the matching form fields, the way
 * refine does; a path like "servicePhones.0" becomes the name path ['servicePhones', 0].
 * Answers whether the error carried field errors.
 */
export function applyFieldErrors(form: FormInstance, error: unknown): boolean {
  const byPath = fieldErrorsByPath(error);
  if (!byPath) return false;
  form.setFields([...byPath].map(([path, errors]) => ({ name: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), errors })));
  return true;
}

/** The server's validation errors by field path ("servicePhones.0"), or null when the error carried none. */
export function fieldErrorsByPath(error: unknown): Map<string, string[]> | null {
  if (!(error instanceof RequestError) || error.errors.length === 0) return null;
  const byPath = new Map<string, string[]>();
  for (const { path, message } of error.errors as FieldError[]) byPath.set(path, [...(byPath.get(path) ?? []), message]);
  return byPath;
}
