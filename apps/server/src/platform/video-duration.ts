/**
 * A video's duration read from its file, without a decoder: MP4 and QuickTime files carry it in the
 * movie header (`moov/mvhd`: time scale and duration), found by walking the box headers with a few
 * small range reads, wherever `moov` lies (before or after the media data). WebM keeps it in its
 * segment info, which music-metadata's Matroska parser reads, as it reads an audio file's frames or headers.
 */
import type { Readable } from 'node:stream';
import { parseStream } from 'music-metadata';
import type { UploadStorage } from './uploads.js';

/** Boxes walked at most before giving up: a real file has a handful at the top and in `moov`. */
const MAX_BOXES = 64;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type ReadAt = (start: number, length: number) => Promise<Buffer>;

/** The first box of `type` between `start` and `end`: where its payload starts and ends. */
async function findBox(readAt: ReadAt, start: number, end: number, type: string): Promise<{ start: number; end: number } | undefined> {
  let offset = start;
  for (let walked = 0; walked < MAX_BOXES && offset + 8 <= end; walked += 1) {
    const head = await readAt(offset, 16);
    if (head.length < 8) return undefined;
    let size = head.readUInt32BE(0);
    let headerSize = 8;
    if (size === 1) {
      if (head.length < 16) return undefined;
      size = Number(head.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < headerSize || offset + size > end) return undefined;
    if (head.toString('latin1', 4, 8) === type) return { start: offset + headerSize, end: offset + size };
    offset += size;
  }
  return undefined;
}

/** Seconds of an MP4 / QuickTime file of `size` bytes from its movie header; undefined when it has none. */
export async function mp4DurationOf(readAt: ReadAt, size: number): Promise<number | undefined> {
  const moov = await findBox(readAt, 0, size, 'moov');
  const mvhd = moov && (await findBox(readAt, moov.start, moov.end, 'mvhd'));
  if (!mvhd) return undefined;
  const header = await readAt(mvhd.start, 32);
  const version = header[0];
  // Version 0: 32-bit creation and modification times, then time scale and a 32-bit duration; version 1: 64-bit times and duration.
  const [timeScale, duration] =
    version === 0 && header.length >= 20
      ? [header.readUInt32BE(12), header.readUInt32BE(16)]
      : version === 1 && header.length >= 32
        ? [header.readUInt32BE(20), Number(header.readBigUInt64BE(24))]
        : [0, 0];
  if (timeScale === 0 || duration === 0 || duration === 0xffffffff) return undefined;
  return duration / timeScale;
}

/** Whole seconds of a stored video or audio file (at least 1 for any length above zero); undefined when it cannot be read. */
export async function mediaDurationOf(uploads: UploadStorage, key: string, contentType: string): Promise<number | undefined> {
  const stored = await uploads.stat(key);
  if (!stored || stored.size === 0) return undefined;
  let seconds: number | undefined;
  try {
    if (contentType === 'video/mp4' || contentType === 'video/quicktime') {
      const readAt: ReadAt = (start, length) => bytesOf(uploads.read(key, { start, end: Math.min(start + length, stored.size) - 1 }));
      seconds = await mp4DurationOf(readAt, stored.size);
    } else {
      seconds = (await parseStream(uploads.read(key), { mimeType: contentType, size: stored.size }, { duration: true })).format.duration;
    }
  } catch {
    return undefined;
  }
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.round(seconds)) : undefined;
}
