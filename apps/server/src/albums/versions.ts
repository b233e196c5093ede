/**
 * Parents' customised versions of a child's book (albumCustomized): a save applies the parent's
 * changes (a photo swapped for another of the child's photos of the task, a caption set) to the version
 * it started from (the latest, or the automatic book's layout when there is none) and stores the
 * result as the next version; no version is ever changed after. The `album-books` job renders each
 * version's print PDF, as it does the books'.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { ALBUM_BOOK_DONE, ALBUM_BOOK_FAILED, ALBUM_BOOK_QUEUED, ALBUM_BOOK_RENDERING, AlbumBookVersion, type AlbumVersionChange, type AppAlbumVersionSave } from '@campus/contract';
import { and, asc, desc, eq, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { albumBookVersions, albumBooks, albumPhotos, albumTasks, albumTemplates } from '../db/schema/index.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { badRequest, msg, notFound } from '../platform/errors.js';
import { newUploadKey, uploadUrlOf, type UploadStorage } from '../platform/uploads.js';
import { updateRecords } from '../resources/engine/services.js';
import { uploadLoader } from './books.js';
import { centreCrop, type BookLayout, type LaidSlot } from './layout.js';
import type { AppParent } from './orders.js';
import { parentBooks } from './orders.js';
import { renderBook } from './render.js';

const MM_PER_INCH = 25.4;
/** A version left rendering this long belongs to an instance that stopped: it is claimed again. */
const STALE_RENDER_MS = 10 * 60_000;
/** Versions one job run renders before it lets the timer breathe (each is seconds of work). */
const VERSIONS_PER_RUN = 4;

/** The child's photos of the book's task: what a parent may swap into the book. */
export async function photosOfBook(db: Executor, bookId: number) {
  return db
    .select({ id: albumPhotos.id, image: albumPhotos.image, caption: albumPhotos.caption, width: albumPhotos.pixelWidth, height: albumPhotos.pixelHeight })
    .from(albumPhotos)
    .innerJoin(albumBooks, and(eq(albumBooks.taskId, albumPhotos.taskId), eq(albumBooks.studentId, albumPhotos.studentId)))
    .where(eq(albumBooks.id, bookId))
    .orderBy(asc(albumPhotos.id));
}

/** The versions of a book, newest first. */
export async function versionsOfBook(db: Executor, bookId: number) {
  return db.select().from(albumBookVersions).where(eq(albumBookVersions.bookId, bookId)).orderBy(desc(albumBookVersions.versionNo));
}

/** The layout with each change applied; a change naming a slot that is not there, or a photo not the child's, is a 400 on its path. */
export function applyChanges(layout: BookLayout, changes: readonly AlbumVersionChange[], photos: readonly { id: number; image: string | null; width: number | null; height: number | null }[]): BookLayout {
  const pages = layout.pages.map((page) => ({ ...page, slots: page.slots.map((slot) => ({ ...slot })) }));
  changes.forEach((change, index) => {
    const slot: LaidSlot | undefined = pages.find((page) => page.page === change.page)?.slots[change.slot];
    if ('photoId' in change) {
      if (slot?.kind !== 'photo') throw badRequest([{ path: `changes.${index}.slot`, ...msg('album.noSuchSlot') }]);
      const photo = photos.find((candidate) => candidate.id === change.photoId);
      if (!photo?.image || !photo.width || !photo.height) throw badRequest([{ path: `changes.${index}.photoId`, ...msg('album.photoNotOfChild') }]);
      const crop = centreCrop(photo.width, photo.height, slot.w, slot.h);
      Object.assign(slot, { photoId: photo.id, image: photo.image, crop, dpi: Math.floor((crop.w * photo.width) / (slot.w / MM_PER_INCH)) });
    } else {
      if (slot?.kind !== 'caption') throw badRequest([{ path: `changes.${index}.slot`, ...msg('album.noSuchSlot') }]);
      slot.text = change.caption;
    }
  });
  return { ...layout, pages };
}

/**
 * Saves a parent's changes as the book's next version (module doc): 404 for a book not of the
 * parent's children; the book's row is locked while the number is taken, so two saves at once make
 * two versions one after the other.
 */
export async function saveVersion(db: Database, parent: AppParent, input: AppAlbumVersionSave, now: Date) {
  const [book] = await parentBooks(db, parent, input.bookId);
  if (!book) throw notFound();
  return db.transaction(async (tx) => {
    await tx.select({ id: albumBooks.id }).from(albumBooks).where(eq(albumBooks.id, book.id)).for('update');
    const [latest] = await versionsOfBook(tx, book.id);
    const base = input.fromVersionNo === undefined ? latest : (await versionsOfBook(tx, book.id)).find((version) => version.versionNo === input.fromVersionNo);
    if (input.fromVersionNo !== undefined && !base) throw badRequest([{ path: 'fromVersionNo', ...msg('album.noSuchVersion') }]);
    const layout = (base?.layout ?? book.layout) as BookLayout | null;
    if (!layout?.pages) throw badRequest([{ path: 'bookId', ...msg('album.bookNotReady') }]);
    const changed = applyChanges(layout, input.changes, await photosOfBook(tx, book.id));
    const versionNo = Number(latest?.versionNo ?? 0) + 1;
    const [row] = await tx
      .insert(albumBookVersions)
      .values({
        createdAt: now,
        title: `${book.studentName} · ${book.taskName} · v${versionNo}`,
        versionNo,
        bookId: book.id,
        schoolId: Number(book.schoolId),
        studentId: Number(book.studentId),
        parentId: parent.id,
        changeCount: input.changes.length,
        changes: input.changes,
        layout: changed,
        state: ALBUM_BOOK_QUEUED,
      })
      .returning();
    return row!;
  });
}

/** Claims the oldest queued version (or one whose renderer died), marking it rendering; none when the queue is empty. */
async function claimVersion(db: Database, now: Date): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const stale = new Date(now.getTime() - STALE_RENDER_MS);
    const [row] = await tx
      .select({ id: albumBookVersions.id })
      .from(albumBookVersions)
      .where(or(eq(albumBookVersions.state, ALBUM_BOOK_QUEUED), and(eq(albumBookVersions.state, ALBUM_BOOK_RENDERING), lt(albumBookVersions.renderStartedAt, stale))))
      .orderBy(asc(albumBookVersions.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return undefined;
    await updateRecords(tx, AlbumBookVersion, [row.id], { values: { state: ALBUM_BOOK_RENDERING, renderStartedAt: now } });
    return row.id;
  });
}

/** Renders one claimed version's PDF and stores it; a failure marks it failed. */
async function renderClaimedVersion(db: Database, storage: UploadStorage, id: number, now: () => Date): Promise<void> {
  try {
    const [version] = await db
      .select({ layout: albumBookVersions.layout, coverImage: albumTemplates.coverImage })
      .from(albumBookVersions)
      .innerJoin(albumBooks, eq(albumBooks.id, albumBookVersions.bookId))
      .innerJoin(albumTasks, eq(albumTasks.id, albumBooks.taskId))
      .innerJoin(albumTemplates, eq(albumTemplates.id, albumTasks.templateId))
      .where(eq(albumBookVersions.id, id));
    if (!version?.layout) throw new Error('the version, its book or its template is gone');
    const rendered = await renderBook(version.layout as BookLayout, uploadLoader(storage), { coverImage: version.coverImage });
    const key = newUploadKey('pdf', now());
    const staged = path.join(storage.stagingDir ?? os.tmpdir(), `album-version-${randomBytes(8).toString('hex')}.pdf`);
    await fs.writeFile(staged, rendered.pdf);
    await storage.put(key, staged);
    await updateRecords(db, AlbumBookVersion, [id], { values: { state: ALBUM_BOOK_DONE, pdfFile: uploadUrlOf(key) }, where: eq(albumBookVersions.state, ALBUM_BOOK_RENDERING) });
  } catch {
    await updateRecords(db, AlbumBookVersion, [id], { values: { state: ALBUM_BOOK_FAILED } });
  }
}

/** Renders queued versions until none is left or `limit` are done; answers how many. */
export async function renderQueuedVersions(db: Database, storage: UploadStorage, now: () => Date, limit: number): Promise<number> {
  let rendered = 0;
  while (rendered < limit) {
    const id = await claimVersion(db, now());
    if (id === undefined) break;
    await renderClaimedVersion(db, storage, id, now);
    rendered += 1;
  }
  return rendered;
}

/** Looks for queued versions every 3 seconds (a parent waits for the PDF before ordering the version). */
export const albumVersionsJob: RecurringJob = {
  name: 'album-versions',
  everyMs: 3_000,
  run: (app: FastifyInstance) => renderQueuedVersions(app.db, app.uploads, () => app.clock.now(), VERSIONS_PER_RUN),
};
