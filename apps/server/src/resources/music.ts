/**
 * Music rows: the file must be an audio upload (its kind was checked by its bytes on upload), and its
 * duration is read from the file when the row is written, never typed in.
 */
import { AppMusic, MUSIC_MAX_SECONDS, isUploadUrl, uploadKeyOf } from '@campus/contract';
import type { Readable } from 'node:stream';
import { parseStream } from 'music-metadata';
import { badRequest, msg } from '../platform/errors.js';
import { contentTypeOfKey } from '../platform/uploads.js';
import { defineFamilyModule } from './engine/modules.js';

/** Seconds of an uploaded audio file, read from its frames or headers; undefined when it has none. */
async function durationOf(read: () => Readable, contentType: string): Promise<number | undefined> {
  try {
    const metadata = await parseStream(read(), { mimeType: contentType }, { duration: true });
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : undefined;
  } catch {
    return undefined;
  }
}

export const appMusicModule = defineFamilyModule(AppMusic, {
  async beforeWrite(ctx, { values }) {
    const file = values.file;
    if (typeof file !== 'string' || !file) return values;
    if (!isUploadUrl(file)) throw badRequest([{ path: 'file', ...msg('music.notUploaded') }]);
    const key = uploadKeyOf(file);
    const contentType = contentTypeOfKey(key);
    if (!contentType.startsWith('audio/')) throw badRequest([{ path: 'file', ...msg('music.notUploaded') }]);
    const seconds = await durationOf(() => ctx.server.uploads.read(key), contentType);
    if (seconds === undefined) throw badRequest([{ path: 'file', ...msg('music.unreadable') }]);
    if (seconds > MUSIC_MAX_SECONDS) throw badRequest([{ path: 'file', ...msg('music.tooLong', { minutes: MUSIC_MAX_SECONDS / 60 }) }]);
    return { ...values, durationSeconds: seconds };
  },
});
