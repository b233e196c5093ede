import { ALBUM_APP_PATHS, ALBUM_BOOK_DONE, ALBUM_BOOK_QUEUED, uploadKeyOf } from '@campus/contract';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderQueuedVersions } from '../../src/albums/versions.js';
import type { BookLayout } from '../../src/albums/layout.js';
import { readAll } from '../../src/albums/images.js';
import { albumBookVersions, albumBooks, albumOrders } from '../../src/db/schema/index.js';
import { asParent } from '../app-channel/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { grantEverything, schoolIdsOf } from '../resources/fixtures.js';
import { addPhotos, call, parentWithAlbumBook, printedOrder } from './album-fixtures.js';

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

/** A parent's book with two photos of the child collected in its task. */
async function bookWithPhotos() {
  const parent = await parentWithAlbumBook(t, schoolId);
  const [book] = await t.db.select({ taskId: albumBooks.taskId, layout: albumBooks.layout }).from(albumBooks).where(eq(albumBooks.id, parent.bookId));
  const photoIds = await addPhotos(t, admin, Number(book!.taskId), parent.studentId, 2);
  const layout = book!.layout as BookLayout;
  // The first page with a photo slot and the caption slot under it.
  const page = layout.pages.find((candidate) => candidate.slots.some((slot) => slot.kind === 'photo' && candidate.slots.some((other) => other.kind === 'caption')))!;
  const photoSlot = page.slots.findIndex((slot) => slot.kind === 'photo');
  const captionSlot = page.slots.findIndex((slot) => slot.kind === 'caption');
  return { ...parent, photoIds, page: page.page, photoSlot, captionSlot, layout };
}

const save = (token: string, payload: unknown) => asParent(t, token, { method: 'POST', url: ALBUM_APP_PATHS.saveVersion, payload: payload as Record<string, unknown> });

describe('a parent customises a child’s book through the app channel', () => {
  it('saves each edit as a new version, never overwriting the one before', async () => {
    const book = await bookWithPhotos();
    const photos = (await asParent(t, book.token, { method: 'GET', url: `${ALBUM_APP_PATHS.photos}?bookId=${book.bookId}` })).json().data;
    expect(photos.map((photo: { id: number }) => photo.id)).toEqual(book.photoIds);

    const first = (await save(book.token, { bookId: book.bookId, changes: [{ page: book.page, slot: book.photoSlot, photoId: book.photoIds[1] }, { page: book.page, slot: book.captionSlot, caption: '第一次郊游' }] })).json();
    expect(first.code, JSON.stringify(first)).toBe(200);
    expect(first.data).toMatchObject({ versionNo: 1, changeCount: 2, state: ALBUM_BOOK_QUEUED });
    const second = (await save(book.token, { bookId: book.bookId, changes: [{ page: book.page, slot: book.captionSlot, caption: '秋游' }] })).json();
    expect(second.data).toMatchObject({ versionNo: 2, changeCount: 1 });

    const stored = await t.db.select().from(albumBookVersions).where(eq(albumBookVersions.bookId, book.bookId));
    const byNo = new Map(stored.map((row) => [Number(row.versionNo), row.layout as BookLayout]));
    const slotOf = (layout: BookLayout, index: number) => layout.pages.find((page) => page.page === book.page)!.slots[index]!;
    // Version 1 keeps its caption; version 2 started from it: the photo stays, the caption changed.
    expect(slotOf(byNo.get(1)!, book.captionSlot).text).toBe('第一次郊游');
    expect(slotOf(byNo.get(2)!, book.captionSlot).text).toBe('秋游');
    for (const version of [1, 2]) expect(slotOf(byNo.get(version)!, book.photoSlot)).toMatchObject({ photoId: book.photoIds[1], crop: expect.any(Object) });
    // The automatic book itself is untouched.
    const [original] = await t.db.select({ layout: albumBooks.layout }).from(albumBooks).where(eq(albumBooks.id, book.bookId));
    expect(original!.layout).toEqual(book.layout);

    // From an older version: version 3 is version 1 with a new caption.
    const third = (await save(book.token, { bookId: book.bookId, fromVersionNo: 1, changes: [{ page: book.page, slot: book.captionSlot, caption: '春游' }] })).json();
    expect(third.data.versionNo).toBe(3);
    const versions = (await asParent(t, book.token, { method: 'GET', url: `${ALBUM_APP_PATHS.versions}?bookId=${book.bookId}` })).json().data;
    expect(versions.map((version: { versionNo: number }) => version.versionNo)).toEqual([3, 2, 1]);
  });

  it('refuses slots that are not there and photos that are not the child’s, and another family’s book is 404', async () => {
    const mine = await bookWithPhotos();
    const other = await bookWithPhotos();
    const wrongPhoto = await save(mine.token, { bookId: mine.bookId, changes: [{ page: mine.page, slot: mine.photoSlot, photoId: other.photoIds[0] }] });
    expect(wrongPhoto.statusCode).toBe(400);
    expect(wrongPhoto.json().data.errors[0].path).toBe('changes.0.photoId');
    const captionIntoPhoto = await save(mine.token, { bookId: mine.bookId, changes: [{ page: mine.page, slot: mine.photoSlot, caption: 'x' }] });
    expect(captionIntoPhoto.statusCode).toBe(400);
    expect((await save(mine.token, { bookId: other.bookId, changes: [{ page: other.page, slot: other.captionSlot, caption: 'x' }] })).statusCode).toBe(404);
    expect((await asParent(t, mine.token, { method: 'GET', url: `${ALBUM_APP_PATHS.versions}?bookId=${other.bookId}` })).statusCode).toBe(404);
    expect((await asParent(t, mine.token, { method: 'GET', url: `${ALBUM_APP_PATHS.photos}?bookId=${other.bookId}` })).statusCode).toBe(404);
    expect(await t.db.select().from(albumBookVersions).where(eq(albumBookVersions.bookId, mine.bookId))).toEqual([]);
  });

  it('renders a version’s PDF, orders that version, and shows the versions in the console within the caller’s scope', async () => {
    const book = await bookWithPhotos();
    const saved = (await save(book.token, { bookId: book.bookId, changes: [{ page: book.page, slot: book.photoSlot, photoId: book.photoIds[0] }, { page: book.page, slot: book.captionSlot, caption: '电子版的一页' }] })).json().data;
    // Not yet rendered: ordering it is refused.
    expect((await asParent(t, book.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: { ...printedOrder(book.bookId), versionNo: 1 } })).statusCode).toBe(400);
    for (let round = 0; round < 20; round++) {
      await renderQueuedVersions(t.db, t.app.uploads, () => new Date(), 10);
      const [row] = await t.db.select({ state: albumBookVersions.state }).from(albumBookVersions).where(eq(albumBookVersions.id, saved.id));
      if (row!.state === ALBUM_BOOK_DONE) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [version] = await t.db.select().from(albumBookVersions).where(eq(albumBookVersions.id, saved.id));
    expect(version!.state).toBe(ALBUM_BOOK_DONE);
    const pdf = await PDFDocument.load(await readAll(t.app.uploads.read(uploadKeyOf(version!.pdfFile!))));
    expect(pdf.getPageCount()).toBe(book.layout.pages.length);

    const ordered = (await asParent(t, book.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: { ...printedOrder(book.bookId), versionNo: 1 } })).json();
    expect(ordered.code, JSON.stringify(ordered)).toBe(200);
    const [order] = await t.db.select().from(albumOrders).where(eq(albumOrders.id, ordered.data.id));
    expect(order).toMatchObject({ versionId: saved.id, pdfFile: version!.pdfFile });

    // An electronic album of the version shows the version in its page-turning view.
    const electronic = (await asParent(t, book.token, { method: 'POST', url: ALBUM_APP_PATHS.order, payload: { bookId: book.bookId, kind: 2, versionNo: 1 } })).json().data;
    const view = await t.app.inject({ method: 'GET', url: `${electronic.viewUrl}&p=${book.page}` });
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('电子版的一页');

    const listed = await call<{ items: { id: number; versionNo: number }[] }>(t, agent1, 'POST', '/api/AlbumBookVersion/Search', { pageIndex: 1, pageSize: 50, bookId: book.bookId });
    expect(listed.items.map((row) => row.id)).toEqual([saved.id]);
    const got = await call<{ layout: BookLayout }>(t, agent1, 'GET', `/api/AlbumBookVersion/Get?id=${saved.id}`);
    const signed = got.layout.pages.flatMap((page) => page.slots).find((slot) => slot.photoId === book.photoIds[0])!;
    expect(signed.image).toMatch(/[?&]s=/);
    expect((await t.injectAs(agent2, { method: 'GET', url: `/api/AlbumBookVersion/Get?id=${saved.id}` })).statusCode).toBe(404);
    const theirs = await call<{ items: unknown[] }>(t, agent2, 'POST', '/api/AlbumBookVersion/Search', { pageIndex: 1, pageSize: 50, bookId: book.bookId });
    expect(theirs.items).toEqual([]);
  });
});
