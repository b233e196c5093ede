/**
 * The pixel size of a stored photo, read from its header (JPEG SOF, PNG IHDR, GIF, WebP): enough to
 * lay a book out and warn of low resolution without decoding an image. A JPEG's EXIF orientation is
 * read too: a phone stores a portrait photo as landscape pixels and a "rotate 90°" tag, so the size
 * answered is the size as the photo is seen (crops, dpi and previews work on that), and the PDF
 * renderer turns the pixels the same way (render.ts).
 */
import type { Readable } from 'node:stream';

/** Bytes read from a file's start to find its size: a JPEG's EXIF block (with a thumbnail) comes before its frame header. */
export const IMAGE_HEADER_BYTES = 256 * 1024;

export interface PixelSize {
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1: as stored); width and height above are already as seen. */
  orientation?: number;
}

/** The size a JPEG, PNG, GIF or WebP header states, or undefined when the bytes are none of them (or cut short). */
export function pixelSizeOf(head: Buffer): PixelSize | undefined {
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47 && head.toString('latin1', 12, 16) === 'IHDR') {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (head.length >= 10 && head.toString('latin1', 0, 3) === 'GIF') return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  if (head.length >= 30 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return webpSize(head);
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8) {
    const stored = jpegSize(head);
    if (!stored) return undefined;
    const orientation = jpegOrientation(head);
    // 5–8 turn the photo a quarter: what is seen is the stored size swapped.
    return orientation >= 5 ? { width: stored.height, height: stored.width, orientation } : { ...stored, orientation };
  }
  return undefined;
}

/** The EXIF orientation (1–8) of a JPEG's APP1 block, 1 when it has none or it is unreadable. */
export function jpegOrientation(head: Buffer): number {
  let offset = 2;
  while (offset + 4 <= head.length && head[offset] === 0xff) {
    const marker = head[offset + 1]!;
    // Start of scan or a frame header: the metadata blocks all come before.
    if (marker === 0xda || (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) return 1;
    const length = head.readUInt16BE(offset + 2);
    if (marker === 0xe1 && offset + 4 + length - 2 <= head.length && head.toString('latin1', offset + 4, offset + 10) === 'Exif\0\0') {
      return tiffOrientation(head.subarray(offset + 10, offset + 2 + length));
    }
    offset += 2 + length;
  }
  return 1;
}

/** Tag 0x0112 of a TIFF block's first directory, in the block's byte order. */
function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const directory = u32(4);
  if (directory + 2 > tiff.length) return 1;
  const entries = u16(directory);
  for (let index = 0; index < entries; index += 1) {
    const entry = directory + 2 + index * 12;
    if (entry + 12 > tiff.length) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

function webpSize(head: Buffer): PixelSize | undefined {
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** Walks the JPEG's segments to its first frame header (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(head: Buffer): PixelSize | undefined {
  let offset = 2;
  while (offset + 9 < head.length) {
    if (head[offset] !== 0xff) return undefined;
    const marker = head[offset + 1]!;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    const length = head.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: head.readUInt16BE(offset + 5), width: head.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

/** All of a stream's bytes. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
