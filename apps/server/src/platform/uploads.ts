import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  ErrorCode,
  MAX_FILES_PER_UPLOAD,
  UPLOAD_CONTENT_TYPES,
  UPLOAD_KEY_PATTERN,
  UPLOAD_URL_PREFIX,
  type Label,
  type ServerMessage,
  type UploadExtension,
  type UploadedFile,
} from '@campus/contract';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fileTypeFromFile } from 'file-type';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { uploadedFiles } from '../db/schema/index.js';
import type { AuthUser } from './auth.js';
import { AppError, badRequest, msg } from './errors.js';
import { clamdScanner, ScannerUnavailable, type MalwareScanner } from './malware-scan.js';
import { scopeOwnerKey } from './scope.js';

/** Where uploaded files are kept: the local disk by default; an object store implements the same. */
export interface UploadStorage {
  /** A local folder where incoming bytes wait while they are checked; on the store's disk, so put() is a rename. */
  readonly stagingDir: string;
  /** Moves a received and checked file from the staging folder into the store under `key`. */
  put(key: string, stagedPath: string): Promise<void>;
  /** The size of a stored file, or undefined when there is none. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** The bytes of a stored file: all of them, or `start` to `end` inclusive. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Removes a stored file; a missing one is no error. */
  remove(key: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    uploads: UploadStorage;
    /** Scans uploads before they are stored, when CLAMD_ADDRESS names a daemon. */
    malwareScanner: MalwareScanner | undefined;
  }
}

/** How long one file's scan may take before the upload is refused as "scanner unavailable". */
const SCAN_TIMEOUT_MS = 30_000;

/** Staged files older than this belong to a process that died mid-upload. */
const STALE_STAGING_MS = 24 * 3_600_000;
const STAGING_FOLDER = '.incoming';

/** Files under `<root>/<yyyy>/<mm>/`, staged in `<root>/.incoming/`. */
export class LocalDiskStorage implements UploadStorage {
  readonly stagingDir: string;

  constructor(private readonly root: string) {
    this.stagingDir = path.join(root, STAGING_FOLDER);
  }

  /** The file of a key; keys are checked against UPLOAD_KEY_PATTERN so none can leave the root. */
  private pathOf(key: string): string {
    if (!UPLOAD_KEY_PATTERN.test(key)) throw new Error(`not an upload key: ${key}`);
    return path.join(this.root, key);
  }

  async put(key: string, stagedPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(stagedPath, target);
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const stats = await fs.stat(this.pathOf(key));
      return stats.isFile() ? { size: stats.size } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}

/** Creates the folders of a local-disk store and removes what crashed processes left in staging. */
export async function openLocalDiskStorage(root: string, now: Date): Promise<LocalDiskStorage> {
  const storage = new LocalDiskStorage(root);
  await fs.mkdir(storage.stagingDir, { recursive: true });
  // Only old leftovers go: several instances may share the folder, and their uploads are in flight.
  for (const name of await fs.readdir(storage.stagingDir)) {
    const file = path.join(storage.stagingDir, name);
    const stats = await fs.stat(file).catch(() => undefined);
    if (stats && now.getTime() - stats.mtimeMs > STALE_STAGING_MS) await fs.rm(file, { force: true });
  }
  return storage;
}

/** A fresh key `<yyyy>/<mm>/<random>.<ext>`: 128 random bits, so addresses cannot be guessed. */
export function newUploadKey(ext: UploadExtension, now: Date): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('base64url')}.${ext}`;
}

/** The public address of a stored file. */
export function uploadUrlOf(key: string): string {
  return `${UPLOAD_URL_PREFIX}${key}`;
}

/** The content type a key is served with (its extension was chosen from the detected type). */
export function contentTypeOfKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1) as UploadExtension;
  return UPLOAD_CONTENT_TYPES[ext];
}

/** What one upload call accepts. */
export interface UploadPolicy {
  /** 'image' or 'video', as the refusal names it. */
  noun: Label;
  /** Accepted kinds, as their detected MIME type → the extension stored. */
  types: Readonly<Record<string, UploadExtension>>;
  /** How the refusal lists the accepted kinds. */
  typeList: Label;
  maxBytes: number;
  /** Files one call takes (default MAX_FILES_PER_UPLOAD). */
  maxFiles?: number;
  /**
   * The extension a staged file is stored under, or undefined to refuse it. Default: the kind detected
   * from its bytes, looked up in `types`. Packages decide by name and magic bytes instead (a firmware
   * .bin has no signature to detect).
   */
  kindOf?: (name: string, stagedPath: string) => Promise<UploadExtension | undefined>;
}

const MAX_SHOWN_NAME = 100;

/** The client's file name as a refusal quotes it: no folders, bounded length. */
function shownName(filename: string | undefined, index: number): string {
  const base = (filename ?? '').split(/[\\/]/).pop()?.trim() ?? '';
  if (!base) return `file ${index + 1}`;
  return base.length > MAX_SHOWN_NAME ? `${base.slice(0, MAX_SHOWN_NAME)}…` : base;
}

/** A size limit as refusals and the API docs state it, e.g. "5 MB". */
export function megabytesText(bytes: number): string {
  return `${Number((bytes / 1_048_576).toFixed(2))} MB`;
}

function refuse(index: number, message: ServerMessage): AppError {
  return badRequest([{ path: `files.${index}`, ...message }], message);
}

/** A refusal of the call as a whole, not of one file. */
function refuseCall(message: ServerMessage): AppError {
  return badRequest([{ path: 'files', ...message }], message);
}

/**
 * Parser failures are the client's (a broken form, too many parts): a 400 naming the problem. Disk
 * failures carry a syscall and stay server errors.
 */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const failure = error as { code?: unknown; syscall?: unknown; statusCode?: unknown };
  if (failure.syscall !== undefined) return error;
  if (failure.code === 'FST_FILES_LIMIT') return refuseCall(msg('upload.tooMany', { max: MAX_FILES_PER_UPLOAD }));
  if (failure.code === 'FST_MP_PREMATURE_CLOSE') return error;
  return refuseCall(msg('upload.malformed'));
}

interface StagedFile {
  stagedPath: string;
  name: string;
  size: number;
  sha256: string;
  ext?: UploadExtension;
}

/** A stored file as its upload record keeps it. */
export interface RecordedUpload {
  key: string;
  size: number;
  sha256: string;
}

/** The bytes a scope's files take (files recorded before sizes were kept count as nothing). */
async function bytesOfScope(db: Database, scopeKey: string): Promise<number> {
  const [row] = await db.select({ total: sql<string>`coalesce(sum(${uploadedFiles.size}), 0)` }).from(uploadedFiles).where(eq(uploadedFiles.scopeKey, scopeKey));
  return Number(row?.total ?? 0);
}

/** The quota of the caller's scope in bytes, or undefined when it has none (company staff). */
function quotaOf(user: AuthUser, quotaBytes: number | undefined): number | undefined {
  return user.type === 'company' || !quotaBytes ? undefined : quotaBytes;
}

function quotaRefusal(quota: number, used: number): AppError {
  return refuseCall(msg('upload.quotaExceeded', { quota: megabytesText(quota), used: megabytesText(used) }));
}

/** Refuses an upload before a byte is read when the caller's scope has no space left. */
async function assertScopeHasSpace(db: Database, user: AuthUser, quotaBytes: number | undefined): Promise<void> {
  const quota = quotaOf(user, quotaBytes);
  if (quota === undefined) return;
  const used = await bytesOfScope(db, scopeOwnerKey(user));
  if (used >= quota) throw quotaRefusal(quota, used);
}

/**
 * Records the scope the caller uploaded files in (`scopeOwnerKey`): rows of other scopes may not
 * reference them (engine/uploaded-files.ts). Refuses them all when they would take the scope past
 * `quotaBytes` (ASVS 12.1.3); the scope is locked meanwhile, so two uploads at once cannot both fit.
 */
export async function recordUploads(db: Database, files: RecordedUpload[], user: AuthUser, quotaBytes?: number): Promise<void> {
  if (files.length === 0) return;
  const scopeKey = scopeOwnerKey(user);
  const quota = quotaOf(user, quotaBytes);
  await db.transaction(async (tx) => {
    if (quota !== undefined) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`uploads:${scopeKey}`}))`);
      const used = await bytesOfScope(tx as unknown as Database, scopeKey);
      const adding = files.reduce((sum, file) => sum + file.size, 0);
      if (used + adding > quota) throw quotaRefusal(quota, used);
    }
    await tx.insert(uploadedFiles).values(files.map((file) => ({ ...file, scopeKey, uploadedBy: user.id })));
  });
}

/** The kind of a staged file as detected from its bytes, among the policy's accepted types. */
async function detectedKind(policy: UploadPolicy, stagedPath: string): Promise<UploadExtension | undefined> {
  const detected = await fileTypeFromFile(stagedPath);
  return detected ? policy.types[detected.mime] : undefined;
}

/** A pass-through stream that feeds every chunk to a SHA-256, so the hash costs no second read of the file. */
function hashing(hash: ReturnType<typeof createHash>): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/** Refuses a staged file the scanner finds infected; with no scanner configured, every file passes. */
async function assertClean(scanner: MalwareScanner | undefined, file: StagedFile, index: number): Promise<void> {
  if (!scanner) return;
  let verdict;
  try {
    verdict = await scanner.scan(file.stagedPath);
  } catch (error) {
    if (!(error instanceof ScannerUnavailable)) throw error;
    // Fail closed: an unscanned file is never stored while scanning is required.
    throw new AppError(503, ErrorCode.ServiceUnavailable, msg('upload.scannerUnavailable'));
  }
  if (verdict.infected) throw refuse(index, msg('upload.malware', { name: file.name, signature: verdict.signature }));
}

/**
 * Receives the files of a multipart request and stores them: each is staged, refused when it is over
 * the size limit or its bytes are not an accepted kind, and only when every file passed are they all
 * moved into the store and recorded with the uploader's scope. A refusal is a 400 naming the file and
 * leaves nothing behind.
 */
export async function receiveUploads(request: FastifyRequest, storage: UploadStorage, policy: UploadPolicy, now: Date): Promise<(UploadedFile & RecordedUpload)[]> {
  if (!request.isMultipart()) throw refuseCall(msg('upload.notMultipart'));
  const quotaBytes = request.server.env.UPLOAD_SCOPE_QUOTA_MB * 1_048_576;
  await assertScopeHasSpace(request.server.db, request.user, quotaBytes);
  const staged: StagedFile[] = [];
  const storedKeys: string[] = [];
  try {
    // The multipart plugin is registered with throwFileSizeLimit: false: an oversized file arrives
    // truncated and is refused below, by name.
    const maxFiles = policy.maxFiles ?? MAX_FILES_PER_UPLOAD;
    const parts = request.parts({
      limits: { fileSize: policy.maxBytes, files: maxFiles, fields: 20, fieldSize: 1024, parts: maxFiles + 20 },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      const index = staged.length;
      const file: StagedFile = { stagedPath: path.join(storage.stagingDir, randomBytes(16).toString('hex')), name: shownName(part.filename, index), size: 0, sha256: '' };
      staged.push(file);
      const target = createWriteStream(file.stagedPath, { flags: 'wx' });
      const hash = createHash('sha256');
      await pipeline(part.file, hashing(hash), target);
      file.size = target.bytesWritten;
      file.sha256 = hash.digest('hex');
      if (part.file.truncated) {
        throw refuse(index, msg('upload.tooLarge', { name: file.name, size: megabytesText(policy.maxBytes), noun: policy.noun }));
      }
      file.ext = await (policy.kindOf ? policy.kindOf(part.filename ?? '', file.stagedPath) : detectedKind(policy, file.stagedPath));
      if (!file.ext) throw refuse(index, msg('upload.wrongType', { name: file.name, types: policy.typeList }));
      await assertClean(request.server.malwareScanner, file, index);
    }
    if (staged.length === 0) throw refuseCall(msg('upload.noFile'));

    const answer: (UploadedFile & RecordedUpload)[] = [];
    for (const file of staged) {
      const ext = file.ext as UploadExtension;
      const key = newUploadKey(ext, now);
      await storage.put(key, file.stagedPath);
      storedKeys.push(key);
      answer.push({ key, url: uploadUrlOf(key), name: file.name, size: file.size, sha256: file.sha256, contentType: UPLOAD_CONTENT_TYPES[ext] });
    }
    // Inside the try: a file whose scope cannot be recorded is removed like a refused one.
    await recordUploads(request.server.db, answer.map(({ key, size, sha256 }) => ({ key, size, sha256 })), request.user, quotaBytes);
    return answer;
  } catch (error) {
    await Promise.all(staged.map((file) => fs.rm(file.stagedPath, { force: true })));
    await Promise.all(storedKeys.map((key) => storage.remove(key)));
    throw asClientError(error);
  }
}

/** Makes the upload store reachable as app.uploads; the local-disk store's folders are created at boot. */
export const uploadsPlugin = fp<{ storage?: UploadStorage }>(
  async (app, options) => {
    app.decorate('uploads', options.storage ?? (await openLocalDiskStorage(app.env.UPLOAD_DIR, app.clock.now())));
    app.decorate('malwareScanner', app.env.CLAMD_ADDRESS ? clamdScanner(app.env.CLAMD_ADDRESS, SCAN_TIMEOUT_MS) : undefined);
  },
  { name: 'uploads', dependencies: ['context'] },
);
