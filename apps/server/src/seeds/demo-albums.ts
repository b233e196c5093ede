/**
 * The demo's albums, made through the album flows as the console's operator would: a spec and its
 * prices, a template, a photo collection for a class of the first school with photos uploaded for its
 * children (some short of the template's slots), in a school of each demo agent; "Make books" queues
 * the books, which the demo renders through the job's own code; a parent's two customised versions
 * (saved through the channel's own service); parents' orders (a printed and an electronic one, paid)
 * and a printed order moved through the print house's first steps.
 */
import { ALBUM_BOOK_DONE, AlbumOrder, AlbumPhoto, AlbumPriceConfig, AlbumSpec, AlbumTask, AlbumTemplate, type ButtonValue } from '@campus/contract';
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.js';
import { albumBooks, albumOrders, albumPhotos, parentStudents, parents, students, uploadedFiles } from '../db/schema/index.js';
import { renderQueuedBooks } from '../albums/books.js';
import type { BookLayout } from '../albums/layout.js';
import { renderQueuedVersions, saveVersion } from '../albums/versions.js';
import { applySystemTransition, runTransition } from '../resources/engine/workflow.js';
import { samplePhoto, sampleSidewaysPortrait } from '../albums/sample-photos.js';
import { scopeOwnerKey } from '../platform/scope.js';
import type { UploadStorage } from '../platform/uploads.js';
import { appStandIn } from '../resources/engine/context.js';
import { addRow } from '../resources/engine/write.js';
import { hooksOf } from '../resources/engine/hooks.js';
import { storeDemoFile, type DemoFile } from './demo-files.js';
import { operatorContext } from './demo-operator.js';

const PHOTO = { width: 1600, height: 1200 };
/** Photos per child of the demo class: the first children complete, the last ones short. */
const PHOTOS_PER_CHILD = [11, 11, 9, 6, 3];

/** Stores the demo class's photos (before the seed's transaction: a store is no database). */
export async function storeDemoAlbumPhotos(storage: UploadStorage, now: Date): Promise<DemoFile[][]> {
  // The last is a phone's portrait: sideways pixels with EXIF "turn 90°", printed and previewed upright.
  const distinct = Array.from({ length: 6 }, (_, seed) => (seed === 5 ? sampleSidewaysPortrait(PHOTO.height, PHOTO.width, seed + 1) : samplePhoto(PHOTO.width, PHOTO.height, seed + 1)));
  const files: DemoFile[][] = [];
  for (const [child, count] of PHOTOS_PER_CHILD.entries()) {
    const list: DemoFile[] = [];
    for (let index = 0; index < count; index++) list.push(await storeDemoFile(storage, distinct[(child + index) % distinct.length]!, 'jpg', now));
    files.push(list);
  }
  return files;
}

export async function seedDemoAlbums(tx: Transaction, adminId: number, schoolIds: readonly number[], photos: DemoFile[][], storage: UploadStorage, now: Date): Promise<void> {
  const contextOf = await operatorContext(tx, adminId, { now: () => now });
  // Photo writes read each file's size from the store, as an upload's row does.
  const as = (def: Parameters<typeof contextOf>[0]) => ({ ...contextOf(def), server: appStandIn('the demo seed', { uploads: storage }) });
  const { id: specId } = await addRow(as(AlbumSpec), { name: '横版精装 12 页', trimWidthMm: 285, trimHeightMm: 210, bleedMm: 3, pageCount: 12, binding: 3, paper: 2, enabled: true });
  await addRow(as(AlbumSpec), { name: '方版锁线 24 页', trimWidthMm: 210, trimHeightMm: 210, bleedMm: 3, pageCount: 24, binding: 3, paper: 3, enabled: true });
  await addRow(as(AlbumPriceConfig), { specId, unitPriceJD: 12_800, unitPriceZC: 6_800, unitPriceSJ: 1_990, remark: '默认价' });
  await addRow(as(AlbumPriceConfig), { specId, province: '浙江省', unitPriceJD: 11_800, unitPriceZC: 5_800, unitPriceSJ: 1_690 });
  await addRow(as(AlbumPriceConfig), { specId, schoolId: schoolIds[0], unitPriceJD: 9_900, unitPriceZC: 4_900, unitPriceSJ: 990, remark: '园所团购价' });
  const { id: templateId } = await addRow(as(AlbumTemplate), { name: '成长足迹', specId, coverTitle: '我的幼儿园时光', layout: 4, captions: true, enabled: true });
  await addRow(as(AlbumTemplate), { name: '四宫格回忆', specId, coverTitle: '快乐成长', layout: 3, captions: false, enabled: true });
  await tx.insert(uploadedFiles).values(photos.flat().map((file) => ({ key: file.key, scopeKey: scopeOwnerKey({ id: 0, type: 'company', parentId: null }), size: file.size, sha256: file.sha256 })));

  for (const [position, schoolId] of schoolIds.entries()) {
    // The school's first class with enrolled children.
    const enrolled = await tx
      .select({ id: students.id, classId: students.classId })
      .from(students)
      .where(and(eq(students.schoolId, schoolId), eq(students.state, 1), isNotNull(students.classId)))
      .orderBy(asc(students.classId), asc(students.id));
    const classId = enrolled[0]?.classId;
    if (!classId) continue;
    const children = enrolled.filter((child) => child.classId === classId).slice(0, PHOTOS_PER_CHILD.length);
    const { id: taskId } = await addRow(as(AlbumTask), { name: '2026秋季成长册', schoolId, classId, term: '2026秋季', templateId, deadline: '2026-12-31' });
    for (const [index, child] of children.entries()) {
      // The second school's children share the first's photo files: a demo needs no more bytes.
      for (const [n, file] of (photos[index] ?? []).entries()) {
        await addRow(as(AlbumPhoto), { taskId, studentId: child.id, image: file.url, caption: n === 0 ? '入园第一天' : `快乐时光 ${n + 1}` });
      }
    }
    await hooksOf(AlbumTask).actions!.MakeBooks!(as(AlbumTask), taskId, {});
    // The job would render them in the first seconds; the demo renders them now so its orders have books.
    await renderQueuedBooks(tx as unknown as Database, storage, () => now, children.length);
    const books = await tx.select({ id: albumBooks.id, studentId: albumBooks.studentId }).from(albumBooks).where(and(eq(albumBooks.taskId, taskId), eq(albumBooks.state, ALBUM_BOOK_DONE))).orderBy(asc(albumBooks.id));
    for (const [index, book] of books.slice(0, 2).entries()) {
      const [link] = await tx.select({ parentId: parentStudents.parentId }).from(parentStudents).where(eq(parentStudents.studentId, Number(book.studentId))).limit(1);
      const [anyParent] = link ? [] : await tx.select({ id: parents.id }).from(parents).where(eq(parents.schoolId, schoolId)).limit(1);
      const parentId = link?.parentId ?? anyParent?.id;
      if (!parentId) continue;
      // As a parent orders in the app: printed copies for the first child, the electronic album for the second; paid at once.
      const printed = index === 0;
      const orderCtx = { ...as(AlbumOrder), view: AlbumOrder.views[printed ? 0 : 1]! };
      const { id: orderId } = await addRow(orderCtx, printed ? { kind: 1, bookId: book.id, parentId, copies: 2, consigneeName: '王女士', consigneePhone: '13800001111', deliveryAddress: '浙江省杭州市西湖区文三路 100 号' } : { kind: 2, bookId: book.id, parentId, copies: 1 });
      const [order] = await tx.select().from(albumOrders).where(eq(albumOrders.id, orderId));
      await applySystemTransition(tx, AlbumOrder, order!, 'Pay', { values: { paidAt: now, tradeNo: `DEMO-${order!.orderNo}` }, now });
      // The first child's parent customised the book in the app: two saves, two versions, the PDF of each rendered.
      if (printed) {
        const appParent = { id: parentId, name: '', phoneNum: '', children: [{ id: Number(book.studentId), schoolId }], schoolIds: [schoolId] };
        const [bookRow] = await tx.select({ layout: albumBooks.layout }).from(albumBooks).where(eq(albumBooks.id, book.id));
        const page = (bookRow?.layout as BookLayout | null)?.pages.find((candidate) => candidate.slots.some((slot) => slot.kind === 'caption'));
        const [otherPhoto] = await tx.select({ id: albumPhotos.id }).from(albumPhotos).where(and(eq(albumPhotos.taskId, taskId), eq(albumPhotos.studentId, Number(book.studentId)))).orderBy(desc(albumPhotos.id)).limit(1);
        if (page && otherPhoto) {
          const photoSlot = page.slots.findIndex((slot) => slot.kind === 'photo');
          const captionSlot = page.slots.findIndex((slot) => slot.kind === 'caption');
          await saveVersion(tx as unknown as Database, appParent, { bookId: book.id, changes: [{ page: page.page, slot: photoSlot, photoId: otherPhoto.id }, { page: page.page, slot: captionSlot, caption: '我最喜欢的一张' }] }, now);
          await saveVersion(tx as unknown as Database, appParent, { bookId: book.id, changes: [{ page: page.page, slot: captionSlot, caption: '和爸爸妈妈去秋游' }] }, now);
          await renderQueuedVersions(tx as unknown as Database, storage, () => now, 2);
        }
      }
      // The first school's printed order is already on its way through the print house.
      if (printed && position === 0) {
        const production = { ...as(AlbumOrder), view: AlbumOrder.views[2]!, buttons: new Set<ButtonValue>(['send', 'print', 'close']) };
        for (const verb of ['Send', 'NotifyPrint']) {
          const [current] = await tx.select({ version: albumOrders.version }).from(albumOrders).where(eq(albumOrders.id, orderId));
          await runTransition(production, AlbumOrder.workflow.transitions.find((transition) => transition.verb === verb)!, { id: orderId, version: Number(current!.version), remark: verb === 'Send' ? '已上传印刷文件' : '印厂已排期' });
        }
      }
    }
  }
}
