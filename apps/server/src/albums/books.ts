/**
 * Automatic books: a task's class gets one book per child, queued; the `album-books` job claims
 * queued books one at a time (`FOR UPDATE SKIP LOCKED`, so any number of instances share the queue),
 * lays the child's photos out, renders the PDF off the request path, stores it as an upload and
 * records the slots filled, the warnings and the progress as it goes.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { ALBUM_BOOK_DONE, ALBUM_BOOK_FAILED, ALBUM_BOOK_QUEUED, ALBUM_BOOK_RENDERING, AlbumBook, isUploadUrl, uploadKeyOf } from '@campus/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Executor } from '../db/client.js';
import { albumBooks, albumOrders, albumPhotos, albumSpecs, albumTasks, albumTemplates, students } from '../db/schema/index.js';
import { newUploadKey, uploadUrlOf, type UploadStorage } from '../platform/uploads.js';
import type { RecurringJob } from '../platform/recurring-jobs.js';
import { updateRecords } from '../resources/engine/services.js';
import { layBook, slotCounts, type BookWarning } from './layout.js';
import { readAll } from './images.js';
import { renderBook } from './render.js';
import type { TemplatePage } from './slots.js';

/** A book left rendering this long belongs to an instance that stopped: it is queued again. */
const STALE_RENDER_MS = 10 * 60_000;
/** Books one job run renders before it lets the timer breathe (each is seconds of work). */
const BOOKS_PER_RUN = 4;

/** Claims the oldest queued book (or one whose renderer died), marking it rendering; none when the queue is empty. */
export async function claimBook(db: Database, now: Date): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const stale = new Date(now.getTime() - STALE_RENDER_MS);
    const [row] = await tx
      .select({ id: albumBooks.id })
      .from(albumBooks)
      .where(sql`${albumBooks.state} = ${ALBUM_BOOK_QUEUED} or (${albumBooks.state} = ${ALBUM_BOOK_RENDERING} and ${albumBooks.updatedAt} < ${stale})`)
      .orderBy(asc(albumBooks.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return undefined;
    await updateRecords(tx, AlbumBook, [row.id], { values: { state: ALBUM_BOOK_RENDERING, progress: 0, error: null }, now });
    return row.id;
  });
}

/** What a book is made from: its task's template and spec, and the child's photos in the order collected. */
async function sourcesOf(db: Executor, bookId: number) {
  const [book] = await db
    .select({ id: albumBooks.id, taskId: albumBooks.taskId, studentId: albumBooks.studentId, studentName: students.name, templateId: albumTasks.templateId })
    .from(albumBooks)
    .innerJoin(albumTasks, eq(albumTasks.id, albumBooks.taskId))
    .innerJoin(students, eq(students.id, albumBooks.studentId))
    .where(eq(albumBooks.id, bookId));
  if (!book) return undefined;
  const [template] = await db
    .select({ slots: albumTemplates.slots, coverTitle: albumTemplates.coverTitle, coverImage: albumTemplates.coverImage, trimWidthMm: albumSpecs.trimWidthMm, trimHeightMm: albumSpecs.trimHeightMm, bleedMm: albumSpecs.bleedMm })
    .from(albumTemplates)
    .innerJoin(albumSpecs, eq(albumSpecs.id, albumTemplates.specId))
    .where(eq(albumTemplates.id, Number(book.templateId)));
  const photos = await db
    .select({ id: albumPhotos.id, image: albumPhotos.image, caption: albumPhotos.caption, width: albumPhotos.pixelWidth, height: albumPhotos.pixelHeight })
    .from(albumPhotos)
    .where(and(eq(albumPhotos.taskId, book.taskId), eq(albumPhotos.studentId, book.studentId)))
    .orderBy(asc(albumPhotos.id));
  return template ? { book, template, photos } : undefined;
}

/** The bytes of a stored upload named by its address. */
export function uploadLoader(storage: UploadStorage) {
  return async (url: string): Promise<Buffer> => {
    if (!isUploadUrl(url)) throw new Error('not an upload address');
    return readAll(storage.read(uploadKeyOf(url)));
  };
}

/** Lays out, renders and stores one claimed book; a failure marks it failed with the reason. */
export async function renderClaimedBook(db: Database, storage: UploadStorage, bookId: number, now: () => Date): Promise<void> {
  try {
    const sources = await sourcesOf(db, bookId);
    if (!sources) throw new Error('the task, its template or its spec is gone');
    const { book, template, photos } = sources;
    const spec = { trimWidthMm: Number(template.trimWidthMm), trimHeightMm: Number(template.trimHeightMm), bleedMm: Number(template.bleedMm) };
    const title = `${book.studentName} · ${template.coverTitle}`;
    const { layout, warnings } = layBook(template.slots as TemplatePage[], spec, photos.map((photo) => ({ ...photo, width: photo.width === null ? null : Number(photo.width), height: photo.height === null ? null : Number(photo.height) })), title);
    let shown = 0;
    const rendered = await renderBook(layout, uploadLoader(storage), {
      coverImage: template.coverImage,
      onPage: async (done, total) => {
        const progress = Math.floor((done / total) * 100);
        // Every tenth of the book is enough for a progress bar, and spares the row a write per page.
        if (progress - shown < 10 || done === total) return;
        shown = progress;
        await updateRecords(db, AlbumBook, [bookId], { values: { progress }, where: eq(albumBooks.state, ALBUM_BOOK_RENDERING) });
      },
    });
    const key = newUploadKey('pdf', now());
    const staged = path.join(storage.stagingDir ?? os.tmpdir(), `album-${randomBytes(8).toString('hex')}.pdf`);
    await fs.writeFile(staged, rendered.pdf);
    await storage.put(key, staged);
    const all: BookWarning[] = [...warnings, ...rendered.warnings];
    const counts = slotCounts(layout);
    const [previous] = await db.select({ pdfFile: albumBooks.pdfFile }).from(albumBooks).where(eq(albumBooks.id, bookId));
    const stillOrdered = previous?.pdfFile ? await db.select({ id: albumOrders.id }).from(albumOrders).where(eq(albumOrders.pdfFile, previous.pdfFile)).limit(1) : [];
    await updateRecords(db, AlbumBook, [bookId], {
      values: {
        state: ALBUM_BOOK_DONE,
        progress: 100,
        pageCount: layout.pages.length,
        slotsFilled: counts.filled,
        slotsEmpty: counts.empty,
        lowDpiCount: all.filter((warning) => warning.code === 'lowDpi').length,
        pdfFile: uploadUrlOf(key),
        layout,
        warnings: all,
        finishedAt: now(),
      },
      where: eq(albumBooks.state, ALBUM_BOOK_RENDERING),
      now: now(),
    });
    // The PDF of the book's previous rendering goes, unless an order sent it to print (the order keeps it).
    if (previous?.pdfFile && stillOrdered.length === 0) await removeBookFile(storage, previous.pdfFile).catch(() => undefined);
  } catch (error) {
    await updateRecords(db, AlbumBook, [bookId], { values: { state: ALBUM_BOOK_FAILED, error: String((error as Error).message ?? error).slice(0, 500), finishedAt: now() }, now: now() });
  }
}

/** Renders queued books until the queue is empty or the run's share is done; answers how many. */
export async function renderQueuedBooks(db: Database, storage: UploadStorage, now: () => Date, limit = BOOKS_PER_RUN): Promise<number> {
  let rendered = 0;
  while (rendered < limit) {
    const id = await claimBook(db, now());
    if (id === undefined) break;
    await renderClaimedBook(db, storage, id, now);
    rendered += 1;
  }
  return rendered;
}

/** Looks for queued books every 3 seconds. */
export const albumBooksJob: RecurringJob = {
  name: 'album-books',
  everyMs: 3_000,
  run: async (app: FastifyInstance) => {
    const rendered = await renderQueuedBooks(app.db, app.uploads, () => app.clock.now());
    return rendered;
  },
};

/** Removes a book's stored PDF (its row is being deleted or re-rendered); a missing file is no error. */
export async function removeBookFile(storage: UploadStorage, url: unknown): Promise<void> {
  if (typeof url === 'string' && isUploadUrl(url)) await storage.remove(uploadKeyOf(url));
}

