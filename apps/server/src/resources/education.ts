/**
 * Courseware rows: a video's file must be a video upload (its kind was checked by its bytes on upload;
 * its length is the file's, declared as the field's `length`); a document's file must be a document upload. The poster is an image the browser grabbed from the video
 * (no frame decoder runs here), so the server only checks it is an uploaded image.
 */
import {
  COURSEWARE_DOCUMENT,
  COURSEWARE_VIDEO,
  EducationCourseware,
  UPLOAD_DOCUMENT_TYPES,
  isUploadUrl,
  uploadKeyOf,
  type Label,
} from '@campus/contract';
import { sql } from 'drizzle-orm';
import { educationDirectories } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { contentTypeOfKey } from '../platform/uploads.js';
import { defineFamilyModule } from './engine/modules.js';
import { columnOf } from './engine/query.js';

const DOCUMENT_CONTENT_TYPES: ReadonlySet<string> = new Set(Object.values(UPLOAD_DOCUMENT_TYPES));
const VIDEO_NOUN: Label = { zh: '视频', en: 'video' };
const DOCUMENT_NOUN: Label = { zh: '文档', en: 'document' };

/** The storage key of an upload address whose stored kind passes `accepts`, else undefined. */
function uploadedKeyOf(value: unknown, accepts: (contentType: string) => boolean): string | undefined {
  if (typeof value !== 'string' || !isUploadUrl(value)) return undefined;
  const key = uploadKeyOf(value);
  return accepts(contentTypeOfKey(key)) ? key : undefined;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

export const educationCoursewareModule = defineFamilyModule(EducationCourseware, {
  computedFilters: {
    // The chosen directory and every directory below it (the tree is a few levels deep, the walk one query).
    inDirectory: (_ctx, table, value) => sql`${columnOf(table, 'directoryId')} in (
      with recursive subtree(id) as (
        select ${educationDirectories.id} from ${educationDirectories} where ${educationDirectories.id} = ${Number(value)}
        union all
        select child.id from ${educationDirectories} child join subtree on child.parent_id = subtree.id
      )
      select id from subtree)`,
  },
  async beforeWrite(ctx, { values, existing }) {
    const next = { ...existing, ...values };
    const uploads = ctx.server.uploads;
    if (next.kind === COURSEWARE_DOCUMENT) {
      // A document has no video, poster or length; a row turned from a video into a document drops them.
      for (const field of ['videoFile', 'posterImage'] as const) {
        if (!isEmpty(values[field])) throw badRequest([{ path: field, ...msg('courseware.notForKind') }]);
      }
      if (uploadedKeyOf(next.documentFile, (type) => DOCUMENT_CONTENT_TYPES.has(type)) === undefined) {
        throw badRequest([{ path: 'documentFile', ...msg('courseware.notUploaded', { noun: DOCUMENT_NOUN }) }]);
      }
      return { ...values, videoFile: null, posterImage: null, durationSeconds: null };
    }
    if (next.kind !== COURSEWARE_VIDEO) return values;
    if (!isEmpty(values.documentFile)) throw badRequest([{ path: 'documentFile', ...msg('courseware.notForKind') }]);
    const videoKey = uploadedKeyOf(next.videoFile, (type) => type.startsWith('video/'));
    if (videoKey === undefined) throw badRequest([{ path: 'videoFile', ...msg('courseware.notUploaded', { noun: VIDEO_NOUN }) }]);
    if (!isEmpty(next.posterImage)) {
      const posterKey = uploadedKeyOf(next.posterImage, (type) => type.startsWith('image/'));
      if (posterKey === undefined || !(await uploads.stat(posterKey))) throw badRequest([{ path: 'posterImage', ...msg('courseware.posterNotUploaded') }]);
    }
    return { ...values, documentFile: null };
  },
});
