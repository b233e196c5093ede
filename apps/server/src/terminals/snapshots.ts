/**
 * Snapshot images of recognition events: each checked by its bytes (not its name or declared type),
 * as uploads are, and stored in the upload storage under a fresh key. They are stored before the
 * events' transaction so the rows can name them; whatever the transaction does not keep is removed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_IMAGE_TYPES, type UploadExtension } from '@campus/contract';
import { fileTypeFromBuffer } from 'file-type';
import type { Transaction } from '../db/client.js';
import { uploadedFiles } from '../db/schema/index.js';
import { badRequest, msg } from '../platform/errors.js';
import { megabytesText, newUploadKey, uploadUrlOf, type UploadStorage } from '../platform/uploads.js';

const IMAGE_EXTENSIONS: Readonly<Record<string, UploadExtension>> = Object.fromEntries(Object.entries(UPLOAD_IMAGE_TYPES).map(([ext, type]) => [type, ext as UploadExtension]));

export interface StoredSnapshot {
  key: string;
  url: string;
}

/**
 * Checks and stores the images `parts` names (event index → part name): a 400 naming the event's
 * `snapshotPart` for a missing, oversized or non-image part, with nothing left in the storage.
 */
export async function storeSnapshots(
  storage: UploadStorage,
  files: ReadonlyMap<string, Uint8Array>,
  parts: ReadonlyMap<number, string>,
  maxBytes: number,
  now: Date,
): Promise<Map<number, StoredSnapshot>> {
  const checked: { index: number; data: Uint8Array; ext: UploadExtension }[] = [];
  for (const [index, part] of parts) {
    const fieldPath = `events.${index}.snapshotPart`;
    const data = files.get(part);
    if (!data) throw badRequest([{ path: fieldPath, ...msg('intake.snapshotMissing', { part }) }]);
    if (data.byteLength > maxBytes) throw badRequest([{ path: fieldPath, ...msg('intake.snapshotTooLarge', { part, size: megabytesText(maxBytes) }) }]);
    const detected = await fileTypeFromBuffer(data);
    const ext = detected ? IMAGE_EXTENSIONS[detected.mime] : undefined;
    if (!ext) throw badRequest([{ path: fieldPath, ...msg('intake.snapshotNotImage', { part }) }]);
    checked.push({ index, data, ext });
  }
  const stored = new Map<number, StoredSnapshot>();
  try {
    for (const { index, data, ext } of checked) {
      const staged = path.join(storage.stagingDir, randomBytes(16).toString('hex'));
      await fs.writeFile(staged, data, { flag: 'wx' });
      const key = newUploadKey(ext, now);
      await storage.put(key, staged);
      stored.set(index, { key, url: uploadUrlOf(key) });
    }
  } catch (error) {
    await removeSnapshots(storage, [...stored.values()]);
    throw error;
  }
  return stored;
}

/** Removes stored snapshots (a refused batch, or events that were duplicates). */
export async function removeSnapshots(storage: UploadStorage, snapshots: readonly StoredSnapshot[]): Promise<void> {
  await Promise.all(snapshots.map((snapshot) => storage.remove(snapshot.key)));
}

/** Records kept snapshots with the scope of the device's school (its agent's, or the company's), as uploads are. */
export async function recordSnapshots(tx: Transaction, snapshots: readonly StoredSnapshot[], scopeKey: string): Promise<void> {
  if (snapshots.length === 0) return;
  await tx.insert(uploadedFiles).values(snapshots.map((snapshot) => ({ key: snapshot.key, scopeKey, uploadedBy: null })));
}
