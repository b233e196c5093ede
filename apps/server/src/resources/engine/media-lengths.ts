/**
 * A file field's declared `length` (a song's, a courseware video's): the engine reads the length from
 * the stored file whenever the file is given or the stored length is empty, so an edit of the title
 * keeps it and nobody types it in. It runs after the family's rules, on the row as they left it (a
 * courseware document has dropped its video by then).
 */
import { isUploadUrl, uploadKeyOf } from '@campus/contract';
import { badRequest, type FieldProblem } from '../../platform/errors.js';
import { contentTypeOfKey } from '../../platform/uploads.js';
import { mediaDurationOf } from '../../platform/video-duration.js';
import type { EngineContext, Row } from './context.js';
import { valueAfter } from './lookup.js';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

/** Sets each declared length from its file; refuses, on the file field, a file of another kind, an unreadable one or a longer one. */
export async function readMediaLengths(ctx: EngineContext, values: Row, existing?: Row): Promise<Row> {
  const out = { ...values };
  const errors: FieldProblem[] = [];
  for (const [name, field] of Object.entries(ctx.def.fields)) {
    if (field.kind !== 'file' || !field.length) continue;
    const { into, max, messages } = field.length;
    const file = valueAfter(values, existing, name);
    const isUnread = existing !== undefined && isEmpty(existing[into]);
    if (isEmpty(file) || (isEmpty(values[name]) && !isUnread)) continue;
    const key = typeof file === 'string' && isUploadUrl(file) ? uploadKeyOf(file) : undefined;
    const contentType = key === undefined ? '' : contentTypeOfKey(key);
    if (key === undefined || !contentType.startsWith(`${field.files ?? 'video'}/`)) {
      errors.push({ path: name, ...messages.notUploaded });
      continue;
    }
    const seconds = await mediaDurationOf(ctx.server.uploads, key, contentType);
    if (seconds === undefined) errors.push({ path: name, ...messages.unreadable });
    else if (seconds > max) errors.push({ path: name, ...messages.tooLong });
    else out[into] = seconds;
  }
  if (errors.length > 0) throw badRequest(errors);
  return out;
}
