import { ALBUM_BOOK_DONE, ALBUM_BOOK_FAILED, ALBUM_BOOK_QUEUED, ALBUM_BOOK_RENDERING, type AlbumChildProgress } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { albumBooks } from '../../src/db/schema/index.js';
import { renderQueuedBooks, uploadLoader } from '../../src/albums/books.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';
import { multipartFiles } from '../helpers/multipart.js';
import { addPhotos, albumSpec, albumTemplate, call, classWithChildren, photoOf, uploadPhotos } from './album-fixtures.js';

let t: TestApp;
let admin: string;
let agent1: string;
let agent2: string;
let schoolId: number;

beforeAll(async () => {
  t = await createTestApp();
  await Promise.all([grantEverything(t, 'agent1'), grantEverything(t, 'agent2')]);
  [admin, agent1, agent2] = await Promise.all([t.loginAs('admin'), t.loginAs('agent1'), t.loginAs('agent2')]);
  schoolId = (await schoolIdsOf(t, 'agent1'))[0]!;
});
afterAll(() => t.close());

const MM = 72 / 25.4;

/** Renders every queued book (the job may be rendering some too) until none of the task's is left waiting. */
async function renderAll(taskId: number): Promise<void> {
  for (let round = 0; round < 200; round++) {
    await renderQueuedBooks(t.db, t.app.uploads, () => new Date());
    const waiting = (await t.db.select({ state: albumBooks.state }).from(albumBooks).where(eq(albumBooks.taskId, taskId))).filter((book) => book.state !== ALBUM_BOOK_DONE && book.state !== ALBUM_BOOK_FAILED);
    if (waiting.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('books never finished');
}

describe('specs, prices and templates', () => {
  it('gives a template its spec’s size and pages and a slot list drawn from its layout', async () => {
    const specId = await albumSpec(t, admin, 8);
    const templateId = await albumTemplate(t, admin, specId, 2);
    const template = await call<Record<string, unknown>>(t, admin, 'GET', `/api/AlbumTemplate/Get?id=${templateId}`);
    expect(template).toMatchObject({ trimWidthMm: 285, trimHeightMm: 210, pageCount: 8, photoSlots: 1 + 7 * 2 });
    const pages = template.slots as { page: number; slots: { kind: string; x: number; y: number; w: number; h: number }[] }[];
    expect(pages).toHaveLength(8);
    for (const page of pages) for (const slot of page.slots) {
      expect(slot.x + slot.w).toBeLessThanOrEqual(285);
      expect(slot.y + slot.h).toBeLessThanOrEqual(210);
    }
  });

  it('keeps one price per spec and place, in fen', async () => {
    const specId = await albumSpec(t, admin);
    await call(t, admin, 'POST', '/api/AlbumPriceConfig/Add', { specId, unitPriceJD: 12_800, unitPriceZC: 6_800, unitPriceSJ: 1_990 });
    const again = await t.injectAs(admin, { method: 'POST', url: '/api/AlbumPriceConfig/Add', payload: { specId, unitPriceJD: 100, unitPriceZC: 100, unitPriceSJ: 100 } });
    expect(again.statusCode).toBe(400);
    await call(t, admin, 'POST', '/api/AlbumPriceConfig/Add', { specId, schoolId, unitPriceJD: 9_900, unitPriceZC: 4_900, unitPriceSJ: 990 });
    const both = await t.injectAs(admin, { method: 'POST', url: '/api/AlbumPriceConfig/Add', payload: { specId, schoolId, province: '浙江省', unitPriceJD: 1, unitPriceZC: 1, unitPriceSJ: 1 } });
    expect(both.statusCode).toBe(400);
  });
});

describe('a task, its photos and the automatic books', () => {
  it('collects photos per child, makes a print-ready PDF per child and reports every slot it could not fill', { timeout: 120_000 }, async () => {
    const specId = await albumSpec(t, admin, 8);
    const templateId = await albumTemplate(t, admin, specId, 1);
    const { classId, studentIds } = await classWithChildren(t, schoolId, 3);
    const [full, partial, none] = studentIds as [number, number, number];
    const { id: taskId } = await call<{ id: number }>(t, agent1, 'POST', '/api/AlbumTask/Add', { name: '秋季成长册', schoolId, classId, term: '2026秋季', templateId, deadline: '2026-12-31' });
    // Eight photo slots (a cover and seven pages of one photo): one child fills them all, one of them with a small photo.
    await addPhotos(t, agent1, taskId, full, 7, { width: 1200, height: 900 });
    await addPhotos(t, agent1, taskId, full, 1, { width: 320, height: 240 });
    await addPhotos(t, agent1, taskId, partial, 3, { width: 900, height: 1200 });

    const task = await call<{ photosNeeded: number; childCount: number; childrenComplete: number; childProgress: AlbumChildProgress[] }>(t, agent1, 'GET', `/api/AlbumTask/Get?id=${taskId}`);
    expect(task).toMatchObject({ photosNeeded: 8, childCount: 3, childrenComplete: 1 });
    expect(Object.fromEntries(task.childProgress.map((child) => [child.studentId, child.photos]))).toEqual({ [full]: 8, [partial]: 3, [none]: 0 });

    expect(await call(t, agent1, 'POST', '/api/AlbumTask/MakeBooks', { id: taskId })).toMatchObject({ queued: 3 });
    const queued = await t.db.select().from(albumBooks).where(eq(albumBooks.taskId, taskId));
    // The job may have claimed one already: none is done before it was rendered.
    expect(queued.map((book) => Number(book.studentId)).sort()).toEqual([...studentIds].sort());
    expect(queued.every((book) => book.state === ALBUM_BOOK_QUEUED || book.state === ALBUM_BOOK_RENDERING)).toBe(true);
    await renderAll(taskId);

    const books = await call<{ items: Record<string, unknown>[]; total: number }>(t, agent1, 'POST', '/api/AlbumBook/Search', { pageIndex: 1, pageSize: 10, taskId });
    expect(books.total).toBe(3);
    const byChild = new Map(books.items.map((book) => [Number(book.studentId), book]));
    for (const [studentId, filled] of [[full, 8], [partial, 3], [none, 0]] as const) {
      const book = byChild.get(studentId)!;
      expect(book).toMatchObject({ state: ALBUM_BOOK_DONE, progress: 100, pageCount: 8, slotsFilled: filled, slotsEmpty: 8 - filled });
      const detail = await call<{ pdfFile: string; warnings: { code: string }[]; layout: { pages: { slots: { kind: string; image?: string }[] }[] } }>(t, agent1, 'GET', `/api/AlbumBook/Get?id=${book.id}`);
      expect(detail.warnings.filter((warning) => warning.code === 'slotEmpty')).toHaveLength(8 - filled);
      // The preview's photos are signed addresses the console can open.
      for (const page of detail.layout.pages) for (const slot of page.slots) if (slot.image) expect(slot.image).toMatch(/\?e=\d+&s=/);

      const pdf = await PDFDocument.load(await uploadLoader(t.app.uploads)(detail.pdfFile));
      expect(pdf.getPageCount()).toBe(8);
      for (const page of pdf.getPages()) {
        const media = page.getMediaBox();
        const trim = page.getTrimBox();
        expect(media.width).toBeCloseTo((285 + 6) * MM, 1);
        expect(media.height).toBeCloseTo((210 + 6) * MM, 1);
        expect(trim).toMatchObject({ x: expect.closeTo(3 * MM, 1), y: expect.closeTo(3 * MM, 1), width: expect.closeTo(285 * MM, 1), height: expect.closeTo(210 * MM, 1) });
        expect(page.getBleedBox().width).toBeCloseTo(media.width, 1);
      }
    }
    // Every photo of the full book is below 300 dpi at 265 mm wide, and says so by photo.
    const fullBook = await call<{ warnings: { code: string; dpi?: number }[]; lowDpiCount: number }>(t, agent1, 'GET', `/api/AlbumBook/Get?id=${byChild.get(full)!.id}`);
    expect(fullBook.lowDpiCount).toBe(8);
    expect(fullBook.warnings.filter((warning) => warning.code === 'lowDpi').every((warning) => warning.dpi! < 300)).toBe(true);
  });

  it('refuses a child of another class, and a file that is no image by its bytes', async () => {
    const specId = await albumSpec(t, admin, 4);
    const templateId = await albumTemplate(t, admin, specId, 1);
    const { classId } = await classWithChildren(t, schoolId, 1);
    const other = await classWithChildren(t, schoolId, 1);
    const { id: taskId } = await call<{ id: number }>(t, agent1, 'POST', '/api/AlbumTask/Add', { name: '春季', schoolId, classId, term: '2027春季', templateId, deadline: '2027-06-30' });
    const [image] = await uploadPhotos(t, agent1, [photoOf(300, 200, 1)]);
    const stranger = await t.injectAs(agent1, { method: 'POST', url: '/api/AlbumPhoto/Add', payload: { taskId, studentId: other.studentIds[0], image } });
    expect(stranger.statusCode).toBe(400);
    const fake = multipartFiles([{ filename: 'photo.jpg', content: Buffer.from('not an image at all'), type: 'image/jpeg' }]);
    expect((await t.injectAs(agent1, { method: 'POST', url: '/api/File/UploadImgs', ...fake })).statusCode).toBe(400);
  });

  it('shows an agent only its schools’ tasks and books', async () => {
    const specId = await albumSpec(t, admin, 4);
    const templateId = await albumTemplate(t, admin, specId, 1);
    const { classId } = await classWithChildren(t, schoolId, 2);
    const { id: taskId } = await call<{ id: number }>(t, agent1, 'POST', '/api/AlbumTask/Add', { name: '毕业册', schoolId, classId, term: '2026秋季', templateId, deadline: '2026-12-31' });
    await call(t, agent1, 'POST', '/api/AlbumTask/MakeBooks', { id: taskId });
    const [book] = await t.db.select({ id: albumBooks.id }).from(albumBooks).where(eq(albumBooks.taskId, taskId));
    expect((await t.injectAs(agent2, { method: 'GET', url: `/api/AlbumTask/Get?id=${taskId}` })).statusCode).toBe(404);
    expect((await t.injectAs(agent2, { method: 'GET', url: `/api/AlbumBook/Get?id=${book!.id}` })).statusCode).toBe(404);
    expect((await t.injectAs(agent2, { method: 'POST', url: '/api/AlbumTask/MakeBooks', payload: { id: taskId } })).statusCode).toBe(404);
    const seen = await call<{ items: { id: number }[] }>(t, agent2, 'POST', '/api/AlbumTask/Search', { pageIndex: 1, pageSize: 100 });
    expect(seen.items.map((task) => task.id)).not.toContain(taskId);
    const books = await call<{ items: { id: number }[] }>(t, agent2, 'POST', '/api/AlbumBook/Search', { pageIndex: 1, pageSize: 100 });
    expect(books.items.map((row) => row.id)).not.toContain(book!.id);
    await renderAll(taskId);
  });
});
