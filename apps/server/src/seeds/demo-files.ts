/** Putting the demo's generated files into the upload store, as an upload would. */
import type { UploadExtension } from '@campus/contract';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { newUploadKey, uploadUrlOf, type UploadStorage } from '../platform/uploads.js';

/** A stored demo file: its address for the rows and what the uploaded_files table records. */
export interface DemoFile {
  url: string;
  key: string;
  size: number;
  /** The hash of the bytes, as an upload records it (a terminal checks its package against it). */
  sha256: string;
}

/** Puts bytes into the store the way an upload does: staged on the store's disk, then moved under a fresh key. */
export async function storeDemoFile(storage: UploadStorage, bytes: Buffer, ext: UploadExtension, now: Date): Promise<DemoFile> {
  const key = newUploadKey(ext, now);
  await fs.mkdir(storage.stagingDir, { recursive: true });
  const staged = path.join(storage.stagingDir, `${randomBytes(8).toString('hex')}.part`);
  await fs.writeFile(staged, bytes);
  await storage.put(key, staged);
  return { url: uploadUrlOf(key), key, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
