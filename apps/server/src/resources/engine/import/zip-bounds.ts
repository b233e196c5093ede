/**
 * Refuses a workbook that unpacks to far more than it weighs (ASVS 12.1.2, decompression bombs) before
 * exceljs reads it. The check reads the file with the same zip reader exceljs uses (unzipper, from the
 * front, local header after local header), so both see the same parts, and counts the bytes as they
 * inflate: a header claiming a small size cannot hide a large part. Reading stops at the first bound
 * passed, so refusing a bomb costs at most `maxUnpackedBytes` of inflation.
 */
import { IMPORT_LIMITS, type ServerMessage } from '@campus/contract';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import unzipper, { type Entry } from 'unzipper';
import { badRequest, msg } from '../../../platform/errors.js';
import { megabytesText } from '../../../platform/uploads.js';

export interface ZipLimits {
  maxUnpackedBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
  maxEntries: number;
}

/** What the archive holds, once it passed. */
export interface ZipFacts {
  entries: number;
  unpackedBytes: number;
  packedBytes: number;
}

/** Inflates every part of the zip at `path`, counting, and answers 400 at the first bound it passes. */
export async function checkZipBounds(path: string, limits: ZipLimits = IMPORT_LIMITS): Promise<ZipFacts> {
  const packedBytes = (await stat(path)).size;
  const source = createReadStream(path);
  // Events, not async iteration: the parser ends its readable side only by an 'end' event it emits itself.
  const zip = unzipper.Parse();
  let entries = 0;
  let unpackedBytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const refuse = (reason: ServerMessage) => reject(badRequest([], reason));
      zip.on('entry', (entry: Entry) => {
        entries += 1;
        if (entries > limits.maxEntries) return refuse(msg('import.zipEntries', { max: limits.maxEntries }));
        entry.on('data', (chunk: Buffer) => {
          unpackedBytes += chunk.length;
          if (unpackedBytes > limits.maxUnpackedBytes) refuse(msg('import.zipTooLarge', { size: megabytesText(limits.maxUnpackedBytes) }));
          else if (unpackedBytes > limits.ratioFloorBytes && unpackedBytes > packedBytes * limits.maxRatio) refuse(msg('import.zipRatio', { ratio: limits.maxRatio }));
        });
        entry.on('error', reject);
      });
      // Not a zip at all, or a broken one: the same answer as any file that is no workbook.
      zip.on('error', () => refuse(msg('import.notXlsx')));
      source.on('error', reject);
      zip.on('close', () => resolve());
      source.pipe(zip);
    });
  } finally {
    // Stops the inflation at once when a bound was passed (a no-op once everything was read).
    source.destroy();
    zip.destroy();
  }
  if (entries === 0) throw badRequest([], msg('import.notXlsx'));
  return { entries, unpackedBytes, packedBytes };
}
