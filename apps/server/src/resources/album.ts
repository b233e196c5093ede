/**
 * Albums' console rules (issue 30): a price row per spec and school, province or default; templates
 * whose page size, count and slots follow their spec; tasks collecting photos per child of a class;
 * books queued per child and rendered by the `album-books` job (albums/books.ts).
 */
import {

  ALBUM_BOOK_QUEUED,
  ALBUM_BOOK_DONE,
  ALBUM_ORDER_ELECTRONIC,
  ALBUM_ORDER_UNPAID,
  AlbumBook,
  AlbumBookVersion,
  AlbumOrder,
  AlbumPhoto,
  AlbumPriceConfig,
  AlbumTask,
  AlbumTemplate,
  isUploadUrl,
  uploadKeyOf,
  type AlbumChildProgress,
} from '@campus/contract';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { albumBookVersions, albumBooks, albumOrders, albumPriceConfigs, albumSpecs, albumTasks, albumTemplates, schools, students } from '../db/schema/index.js';
import { albumBooksJob, removeBookFile } from '../albums/books.js';
import { albumVersionsJob } from '../albums/versions.js';
import { albumOrderAmount, albumOrderOfAttach, albumPriceFor, albumViewUrl, settleAlbumOrderPayment } from '../albums/orders.js';
import { withOrderPayments } from '../finance/payment-notifications.js';
import type { NotificationHandler } from '../finance/notifications.js';
import { IMAGE_HEADER_BYTES, pixelSizeOf, readAll } from '../albums/images.js';
import type { BookLayout } from '../albums/layout.js';
import { photoSlotCount, templatePages } from '../albums/slots.js';
import { badRequest, msg } from '../platform/errors.js';
import type { EngineContext } from './engine/context.js';
import { valueAfter } from './engine/lookup.js';
import { defineFamilyModule } from './engine/modules.js';
import { updateRecords } from './engine/services.js';
import { addRow, loadInScope } from './engine/write.js';

const ENROLLED = 1;

export const albumPriceConfigModule = defineFamilyModule(AlbumPriceConfig, {
  // One price per spec and place: a school's, a province's, or the default (neither).
  async beforeWrite(ctx, { values, existing }) {
    const specId = Number(valueAfter(values, existing, 'specId'));
    const schoolId = valueAfter(values, existing, 'schoolId') ?? null;
    const province = valueAfter(values, existing, 'province') || null;
    if (schoolId !== null && province !== null) throw badRequest([{ path: 'province', ...msg('album.priceSchoolOrProvince') }]);
    const same = await ctx.db
      .select({ id: albumPriceConfigs.id })
      .from(albumPriceConfigs)
      .where(
        and(
          eq(albumPriceConfigs.specId, specId),
          schoolId === null ? isNull(albumPriceConfigs.schoolId) : eq(albumPriceConfigs.schoolId, Number(schoolId)),
          province === null ? isNull(albumPriceConfigs.province) : eq(albumPriceConfigs.province, String(province)),
          existing ? ne(albumPriceConfigs.id, Number(existing.id)) : undefined,
        ),
      )
      .limit(1);
    if (same.length > 0) throw badRequest([{ path: schoolId !== null ? 'schoolId' : province !== null ? 'province' : 'specId', ...msg('album.priceDuplicate') }]);
    // The row as pickers and logs name it: the spec and where the price applies.
    const [spec] = await ctx.db.select({ name: albumSpecs.name }).from(albumSpecs).where(eq(albumSpecs.id, specId));
    const [school] = schoolId === null ? [] : await ctx.db.select({ name: schools.schoolName }).from(schools).where(eq(schools.id, Number(schoolId)));
    const place = school?.name ?? province ?? (ctx.locale === 'en' ? 'default' : '默认');
    return { ...values, province, title: `${spec?.name ?? specId} · ${place}` };
  },
});

export const albumTemplateModule = defineFamilyModule(AlbumTemplate, {
  // The page size and count are the spec's; the slots follow them and the layout.
  async beforeWrite(ctx, { values, existing }) {
    const specId = Number(valueAfter(values, existing, 'specId'));
    const [spec] = await ctx.db.select().from(albumSpecs).where(eq(albumSpecs.id, specId));
    if (!spec) return values;
    if (!spec.enabled && values.specId !== undefined && values.specId !== existing?.specId) throw badRequest([{ path: 'specId', ...msg('album.specDisabled') }]);
    const pages = templatePages({ trimWidthMm: Number(spec.trimWidthMm), trimHeightMm: Number(spec.trimHeightMm), pageCount: Number(spec.pageCount) }, Number(valueAfter(values, existing, 'layout')), valueAfter(values, existing, 'captions') !== false);
    return { ...values, trimWidthMm: Number(spec.trimWidthMm), trimHeightMm: Number(spec.trimHeightMm), pageCount: Number(spec.pageCount), slots: pages, photoSlots: photoSlotCount(pages) };
  },
});

/** Each task's enrolled children with the photos collected for them, in one query for the rows read. */
async function progressOf(db: Executor, taskIds: number[]): Promise<Map<number, AlbumChildProgress[]>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .select({ taskId: albumTasks.id, needed: albumTasks.photosNeeded, studentId: students.id, name: students.name, photos: sql<number>`(select count(*)::int from album_photos p where p.task_id = ${albumTasks.id} and p.student_id = ${students.id})` })
    .from(albumTasks)
    .innerJoin(students, and(eq(students.classId, albumTasks.classId), eq(students.state, ENROLLED)))
    .where(inArray(albumTasks.id, taskIds))
    .orderBy(asc(students.name), asc(students.id));
  const byTask = new Map<number, AlbumChildProgress[]>();
  for (const row of rows) {
    const list = byTask.get(Number(row.taskId)) ?? [];
    list.push({ studentId: Number(row.studentId), name: String(row.name), photos: Number(row.photos), needed: Number(row.needed ?? 0) });
    byTask.set(Number(row.taskId), list);
  }
  return byTask;
}

/** Queues a book for every enrolled child of the task's class: a child's existing book is queued again. */
async function makeBooks(ctx: EngineContext, taskId: number): Promise<{ queued: number }> {
  return ctx.db.transaction(async (tx) => {
    const task = await loadInScope(ctx, tx, taskId, true);
    const children = await tx.select({ id: students.id }).from(students).where(and(eq(students.classId, Number(task.classId)), eq(students.state, ENROLLED))).orderBy(asc(students.id));
    if (children.length === 0) throw badRequest([{ path: 'id', ...msg('album.noChildren') }]);
    const existing = await tx.select({ id: albumBooks.id, studentId: albumBooks.studentId }).from(albumBooks).where(eq(albumBooks.taskId, taskId));
    const bookOf = new Map(existing.map((book) => [Number(book.studentId), Number(book.id)]));
    const bookCtx: EngineContext = { ...ctx, db: tx, def: AlbumBook, view: AlbumBook.views[0]! };
    const again = children.map((child) => bookOf.get(Number(child.id))).filter((id): id is number => id !== undefined);
    await updateRecords(tx, AlbumBook, again, { values: { state: ALBUM_BOOK_QUEUED, progress: 0, error: null }, log: { userId: ctx.user.id, action: 'makeBooks' }, now: ctx.clock.now() });
    for (const child of children) if (!bookOf.has(Number(child.id))) await addRow(bookCtx, { taskId, studentId: Number(child.id) });
    return { queued: children.length };
  });
}

export const albumTaskModule = defineFamilyModule(AlbumTask, {
  // A child needs a photo for each photo slot of the template.
  async beforeWrite(ctx, { values, existing }) {
    const templateId = Number(valueAfter(values, existing, 'templateId'));
    const [template] = await ctx.db.select({ photoSlots: albumTemplates.photoSlots }).from(albumTemplates).where(eq(albumTemplates.id, templateId));
    return { ...values, photosNeeded: Number(template?.photoSlots ?? 0) };
  },
  async afterRead(ctx, rows) {
    const progress = await progressOf(ctx.db, rows.map((row) => Number(row.id)));
    return rows.map((row) => {
      const children = progress.get(Number(row.id)) ?? [];
      return {
        ...row,
        childCount: children.length,
        childrenComplete: children.filter((child) => child.photos >= child.needed).length,
        photoCount: children.reduce((sum, child) => sum + child.photos, 0),
        childProgress: children,
      };
    });
  },
  actions: { MakeBooks: (ctx, id) => makeBooks(ctx, id) },
});

/** The task's class must be the child's. */
async function checkChildOfTask(db: Executor, taskId: number, studentId: number, path: string): Promise<void> {
  const [found] = await db
    .select({ id: students.id })
    .from(students)
    .innerJoin(albumTasks, eq(albumTasks.classId, students.classId))
    .where(and(eq(albumTasks.id, taskId), eq(students.id, studentId)));
  if (!found) throw badRequest([{ path, ...msg('album.studentNotInClass') }]);
}

export const albumPhotoModule = defineFamilyModule(AlbumPhoto, {
  // The photo's pixel size is read from its bytes once, when it is stored: layouts and dpi warnings need it.
  async beforeWrite(ctx, { values, existing }) {
    await checkChildOfTask(ctx.db, Number(valueAfter(values, existing, 'taskId')), Number(valueAfter(values, existing, 'studentId')), 'studentId');
    const image = values.image;
    if (typeof image !== 'string' || image === existing?.image) return values;
    const size = isUploadUrl(image) ? pixelSizeOf(await readAll(ctx.server.uploads.read(uploadKeyOf(image), { start: 0, end: IMAGE_HEADER_BYTES - 1 })).catch(() => Buffer.alloc(0))) : undefined;
    if (!size) throw badRequest([{ path: 'image', ...msg('album.photoUnreadable') }]);
    return { ...values, pixelWidth: size.width, pixelHeight: size.height };
  },
});

/** The layout's photo addresses signed for the reader, as image fields are. */
function signLayout(layout: unknown, sign: (url: string) => string): unknown {
  const book = layout as BookLayout | null;
  if (!book?.pages) return layout;
  return { ...book, pages: book.pages.map((page) => ({ ...page, slots: page.slots.map((slot) => (slot.image ? { ...slot, image: sign(slot.image) } : slot)) })) };
}

export const albumBookVersionModule = defineFamilyModule(AlbumBookVersion, {
  recurringJobs: [albumVersionsJob],
  // The preview's photos are signed for the reader, as the book's are.
  async afterRead(ctx, rows) {
    if (!rows.some((row) => row.layout)) return rows;
    const signer = await ctx.server.mediaUrls();
    return rows.map((row) => (row.layout ? { ...row, layout: signLayout(row.layout, (url) => signer.sign(url)) } : row));
  },
});

export const albumBookModule = defineFamilyModule(AlbumBook, {
  recurringJobs: [albumBooksJob],
  // A book's PDF is its own (an order of it keeps the book, so a book with orders is never deleted).
  async afterDelete(ctx, rows) {
    for (const row of rows) await removeBookFile(ctx.server.uploads, row.pdfFile);
  },
  // Added or changed by hand, a book is (re)queued for the job.
  async beforeWrite(ctx, { values, existing }) {
    const taskId = Number(valueAfter(values, existing, 'taskId'));
    const studentId = Number(valueAfter(values, existing, 'studentId'));
    await checkChildOfTask(ctx.db, taskId, studentId, 'studentId');
    // The book as lists and pickers name it: the child and the collection.
    const [named] = await ctx.db.select({ child: students.name, task: albumTasks.name }).from(students).innerJoin(albumTasks, eq(albumTasks.id, taskId)).where(eq(students.id, studentId));
    return { ...values, title: `${named?.child ?? studentId} · ${named?.task ?? taskId}`, state: ALBUM_BOOK_QUEUED as typeof ALBUM_BOOK_QUEUED, progress: 0, error: null };
  },
  async afterRead(ctx, rows) {
    if (!rows.some((row) => row.layout)) return rows;
    const signer = await ctx.server.mediaUrls();
    return rows.map((row) => (row.layout ? { ...row, layout: signLayout(row.layout, (url) => signer.sign(url)) } : row));
  },
});



/** A book's child, school and spec, for an order of it. */
async function bookOfOrder(db: Executor, bookId: number) {
  const [book] = await db
    .select({ studentId: albumBooks.studentId, schoolId: albumBooks.schoolId, specId: albumTemplates.specId, pdfFile: albumBooks.pdfFile, state: albumBooks.state })
    .from(albumBooks)
    .innerJoin(albumTasks, eq(albumTasks.id, albumBooks.taskId))
    .innerJoin(albumTemplates, eq(albumTemplates.id, albumTasks.templateId))
    .where(eq(albumBooks.id, bookId));
  return book;
}

export const albumOrderModule = defineFamilyModule(AlbumOrder, {
  // The price is the price config's at the moment of ordering, written with the order and never again.
  async beforeWrite(ctx, { op, values, existing }) {
    if (op === 'update') {
      if (values.bookId !== undefined && values.bookId !== existing?.bookId) throw badRequest([{ path: 'bookId', ...msg('mall.linesFixed') }]);
      if (values.copies !== undefined && values.copies !== existing?.copies) throw badRequest([{ path: 'copies', ...msg('mall.linesFixed') }]);
      return values;
    }
    const book = await bookOfOrder(ctx.db, Number(values.bookId));
    if (!book || book.state !== ALBUM_BOOK_DONE) throw badRequest([{ path: 'bookId', ...msg('album.bookNotReady') }]);
    const prices = await albumPriceFor(ctx.db, Number(book.specId), Number(book.schoolId));
    if (!prices) throw badRequest([{ path: 'bookId', ...msg('album.noPrice') }]);
    const kind = Number(values.kind ?? ctx.view.fixed?.kind);
    const copies = kind === ALBUM_ORDER_ELECTRONIC ? 1 : Number(values.copies ?? 1);
    const { unitPrice, amount } = albumOrderAmount(prices, kind, copies);
    // A customised version prints only once its PDF is made, and only as a version of this book.
    if (values.versionId !== undefined && values.versionId !== null) {
      const [version] = await ctx.db.select({ bookId: albumBookVersions.bookId, state: albumBookVersions.state }).from(albumBookVersions).where(eq(albumBookVersions.id, Number(values.versionId)));
      if (!version || Number(version.bookId) !== Number(values.bookId)) throw badRequest([{ path: 'versionId', ...msg('album.noSuchVersion') }]);
      if (version.state !== ALBUM_BOOK_DONE) throw badRequest([{ path: 'versionId', ...msg('album.versionNotReady') }]);
    }
    return { ...values, copies, studentId: Number(book.studentId), specId: Number(book.specId), unitPrice, amount };
  },
  // The book's PDF goes with the order to the print house. Set after the engine's upload check, which
  // refuses a parent naming a file its own scope did not upload: this file is the platform's own.
  async afterWrite(ctx, { op, ids, values }) {
    if (op !== 'add') return;
    const [version] = values.versionId ? await ctx.db.select({ pdfFile: albumBookVersions.pdfFile }).from(albumBookVersions).where(eq(albumBookVersions.id, Number(values.versionId))) : [];
    const pdfFile = version ? version.pdfFile : (await bookOfOrder(ctx.db, Number(values.bookId)))?.pdfFile;
    if (pdfFile) await ctx.db.update(albumOrders).set({ pdfFile }).where(inArray(albumOrders.id, ids));
  },
  // An electronic order once paid carries its page-turning link.
  async afterRead(ctx, rows) {
    return Promise.all(rows.map(async (row) => (Number(row.kind) === ALBUM_ORDER_ELECTRONIC && Number(row.state) !== ALBUM_ORDER_UNPAID ? { ...row, viewLink: await albumViewUrl(ctx.server, Number(row.id)) } : row)));
  },
});

/** The payment notifications of album orders (WeChat Pay's `pending` answered at ordering). */
export const withAlbumOrderPayments = (next: NotificationHandler<'payment'>): NotificationHandler<'payment'> =>
  withOrderPayments(
    {
      orderOfAttach: albumOrderOfAttach,
      settle: settleAlbumOrderPayment,
      payerOf: async (tx, orderId) => (await tx.select({ schoolId: albumOrders.schoolId, parentId: albumOrders.parentId }).from(albumOrders).where(eq(albumOrders.id, orderId)))[0],
    },
    next,
  );
